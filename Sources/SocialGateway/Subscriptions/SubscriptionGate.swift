import Foundation
import SocialDomain

/// Whether a subscriber may see an event now, decided at delivery through the same loaders (and
/// so the same use cases and visibility rules) that then answer it: a post whose author turned
/// private, a comment of a now-private commenter, an actor the viewer may not see, are not told.
///
/// A profile's activity (its follows, likes and comments) is behind its card, as its posts and
/// lists are (``SocialDomain/SocialRules/showsActivity(actor:subject:)``): a viewer who sees only
/// the card of the actor (a private profile they do not follow) hears nothing of it, neither as a
/// notification nor as `postActivity` (issue 51). The rule is the domain's: the actor's profile
/// as loaded for the viewer says its ``SocialDomain/Profile/access``, and the post's author (the
/// subject) is checked by loading the post, which shows only when the viewer sees its author.
///
/// Each check loads through the request's loaders, so the answer that follows reads the same
/// values without another store call. A store failure admits the event: the answer then carries
/// the failure as a `BACKEND_UNAVAILABLE` error (and no data), which the subscriber should hear.
enum SubscriptionGate {
    static func admits(_ event: SubscriptionEvent, _ request: RequestContext) async -> Bool {
        do {
            switch event {
            case .notification(let activity):
                guard try await toldOf(activity, request) else { return false }
                if let post = activity.post, try await request.postsByID.load(post) == nil { return false }
                if let comment = activity.comment, try await request.commentsByID.load(comment) == nil { return false }
                return true
            case .feedPost(let activity):
                guard let viewer = request.viewer.userId, let post = activity.post else { return false }
                if activity.actor != viewer {
                    guard try await request.followStates.load(activity.actor)?.viewerIsFollowing == true else { return false }
                }
                return try await request.postsByID.load(post) != nil
            case .postActivity(let post, let comment, let actor):
                guard try await request.postsByID.load(post) != nil else { return false }
                if let actor, try await !seesActivity(of: actor, request) { return false }
                if let comment { return try await request.commentsByID.load(comment) != nil }
                return true
            }
        } catch {
            return true
        }
    }

    /// Whether a notification's actor may be told of (``SocialDomain/SocialRules/showsNotification(_:actor:)``):
    /// seen whole, as any activity, or for a follow request its card.
    private static func toldOf(_ activity: Activity, _ request: RequestContext) async throws -> Bool {
        if activity.actor == request.viewer.userId { return true }
        return SocialRules.showsNotification(activity.kind, actor: try await request.profilesByID.load(activity.actor)?.access)
    }

    /// Whether the viewer sees `profile` whole (``SocialDomain/SocialRules/sees(_:)``), and so its
    /// activity: not when it is hidden, nor when only its card shows.
    private static func seesActivity(of profile: UUID, _ request: RequestContext) async throws -> Bool {
        if profile == request.viewer.userId { return true }
        return SocialRules.sees(try await request.profilesByID.load(profile)?.access)
    }
}
