import Foundation
import SocialDomain

/// Whether a subscriber may see an event now, decided at delivery through the same loaders (and
/// so the same use cases and visibility rules) that then answer it: a post whose author turned
/// private, a comment of a now-private commenter, an actor the viewer may not see, are not told.
///
/// Each check loads through the request's loaders, so the answer that follows reads the same
/// values without another store call. A store failure admits the event: the answer then carries
/// the failure as a `BACKEND_UNAVAILABLE` error (and no data), which the subscriber should hear.
enum SubscriptionGate {
    static func admits(_ event: SubscriptionEvent, _ request: RequestContext) async -> Bool {
        do {
            switch event {
            case .notification(let activity):
                guard try await request.profilesByID.load(activity.actor) != nil else { return false }
                if let post = activity.post, try await request.postsByID.load(post) == nil { return false }
                if let comment = activity.comment, try await request.commentsByID.load(comment) == nil { return false }
                return true
            case .feedPost(let activity):
                guard let viewer = request.viewer.userId, let post = activity.post else { return false }
                if activity.actor != viewer {
                    guard try await request.followStates.load(activity.actor)?.viewerIsFollowing == true else { return false }
                }
                return try await request.postsByID.load(post) != nil
            case .postActivity(let post, let comment):
                guard try await request.postsByID.load(post) != nil else { return false }
                if let comment { return try await request.commentsByID.load(comment) != nil }
                return true
            }
        } catch {
            return true
        }
    }
}
