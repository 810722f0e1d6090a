import Foundation
import SocialDomain

/// One event of a live subscription: the root value its operation is executed with (§6.2.3.2
/// ExecuteSubscriptionEvent), so the `Subscription` type's resolvers read it as their parent.
enum SubscriptionEvent: Sendable, Hashable {
    /// `notifications`: a follow of the subscriber, or a like or comment on one of their posts.
    case notification(Activity)
    /// `feedPosts`: a post was written (the gate checks that the subscriber follows its author).
    case feedPost(Activity)
    /// `postActivity`: the post changed; `comment` when the change added one; `actor` who
    /// changed it when an activity says so (a like, a comment), for the gate to check that the
    /// subscriber may see that profile's activity.
    case postActivity(post: UUID, comment: UUID?, actor: UUID?)
}

/// What a subscription listens to, from its root field and arguments: the key the hub routes by.
enum SubscriptionTopic: Sendable, Hashable {
    /// The viewer's own notifications.
    case notifications(viewer: UUID)
    /// Every written post, gated per subscriber by whom they follow.
    case feedPosts
    /// One post's changes.
    case postActivity(post: UUID)
}
