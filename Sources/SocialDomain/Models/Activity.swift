import Foundation

/// Something a profile did that another profile may be told of as it happens: a follow, a like,
/// a comment, a post. Activities feed the gateway's subscriptions (notifications, the live feed,
/// a post's activity); the response cache never reads them, it reads tags.
///
/// A backend with a ``ChangeFeed`` reports each one committed anywhere as
/// ``ChangeFeedEvent/happened(_:)``; without one (the embedded store) the gateway's mutations
/// publish their own.
///
/// ```swift
/// let like = Activity(kind: .liked, actor: bob, subject: alice, post: postId, at: now)
/// // alice (the post's author) is told that bob liked her post
/// ```
public struct Activity: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// `actor` started following `subject` (a new follow, or an undone one made again).
        case followed
        /// `actor` liked `post`, written by `subject`.
        case liked
        /// `actor` wrote `comment` on `post`, written by `subject`.
        case commented
        /// `actor` wrote `post` (`subject` is the actor too).
        case posted
        /// `actor` asked to follow `subject`, a private profile (issue 54: stored notifications).
        case followRequested
        /// `actor`, a private profile, approved the request `subject` made to follow it (issue 54).
        case followApproved
    }

    public var kind: Kind
    /// The profile that acted.
    public var actor: UUID
    /// The profile the activity concerns, the one a notification goes to: the followee, or the
    /// author of the post liked, commented on or written.
    public var subject: UUID
    /// The post liked, commented on or written.
    public var post: UUID?
    /// The comment written.
    public var comment: UUID?
    /// When it was committed, in microseconds since 1970 UTC (the row's own time).
    public var at: Int64

    public init(kind: Kind, actor: UUID, subject: UUID, post: UUID? = nil, comment: UUID? = nil, at: Int64) {
        self.kind = kind
        self.actor = actor
        self.subject = subject
        self.post = post
        self.comment = comment
        self.at = at
    }

    /// The notification key of this activity: `kind:actor:subject:post:comment:at` (UUIDs lower
    /// case, an absent post or comment empty). The same event always has the same key, whether it
    /// is told live or read back from the stored notifications, so a resumed subscription can
    /// drop a live event it has just sent from the store (the stores' SQL writes the same text).
    public var notificationKey: String {
        [kind.rawValue, actor.lowercased, subject.lowercased, post?.lowercased ?? "", comment?.lowercased ?? "", String(at)]
            .joined(separator: ":")
    }

    /// Whether the fields this kind needs are there: a like, a comment and a post name their post,
    /// a comment its comment, and only a follow is between two different profiles by definition.
    public var isWellFormed: Bool {
        switch kind {
        case .followed, .followRequested, .followApproved: post == nil && comment == nil && actor != subject
        case .liked: post != nil && comment == nil
        case .commented: post != nil && comment != nil
        case .posted: post != nil && comment == nil && actor == subject
        }
    }
}
