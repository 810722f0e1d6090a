import Foundation
import SocialDomain

/// Whether one subscriber of a shared answer (``SubscriptionAudience/mayReadPost``) may be told a
/// post, decided from what was read once of the post's author for the whole fan-out
/// (``PostAudience``) rather than by a store read per subscriber (issue 53: the gate's follow
/// check alone was 17% of a fan-out's samples).
///
/// `feedPosts` tells a post to its author and to the profiles that actively follow the author
/// and see them whole: ``SocialDomain/SocialRules/viewerIsFollowing(viewerFollowsProfile:access:)``
/// with ``SocialDomain/SocialRules/access(_:)`` applied to the author's relations, the question
/// ``SubscriptionGate`` asks through the request's loaders, by the same rule. Where the author's
/// relations could not be read or are too many to hold, the answer is ``unknown`` and the
/// subscriber is answered on their own, exactly as without sharing.
///
/// ```swift
/// switch EventAdmission.decide(viewer: viewer, author: author, known: known) { ... }
/// ```
enum EventAdmission: Sendable, Equatable {
    /// The viewer may read the post: hand them the shared answer.
    case admitted
    /// The viewer may not: skip the event for them.
    case refused
    /// Nothing shared can say: answer this viewer on their own (``SubscriptionGate``).
    case unknown

    static func decide(viewer: Viewer, author: UUID, known: PostAudience.Known?) -> EventAdmission {
        guard let me = viewer.userId else { return .unknown }
        // The author's own post: they see themselves (whether it still exists, the shared
        // execution finds out).
        if me == author { return .admitted }
        guard case .relations(let isPublic, let followers, let blocks, _)? = known else { return .unknown }
        let follows = followers.contains(me)
        let access = SocialRules.access(VisibilityFacts(
            viewer: viewer, profileId: author, isPublic: isPublic, viewerFollows: follows, blocked: blocks.contains(me)))
        return SocialRules.viewerIsFollowing(viewerFollowsProfile: follows, access: access) ? .admitted : .refused
    }
}
