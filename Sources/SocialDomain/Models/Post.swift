import Foundation

/// A post (seed 004 `Post`): text, up to ``PostRules/maxImages`` image URLs, and the counts the
/// store keeps with each like and comment.
///
/// ``viewerHasLiked`` is the reading viewer's own state, read with the post (false for anonymous
/// viewers), so a feed's `viewerHasLiked` costs no call of its own.
public struct Post: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var authorId: UUID
    public var content: String
    public var imageURLs: [String]
    public var likeCount: Int
    public var commentCount: Int
    public var createdAtMicroseconds: Int64
    public var updatedAt: Date
    public var viewerHasLiked: Bool

    public init(
        id: UUID, authorId: UUID, content: String, imageURLs: [String] = [], likeCount: Int = 0, commentCount: Int = 0,
        createdAtMicroseconds: Int64, updatedAt: Date, viewerHasLiked: Bool = false
    ) {
        self.id = id
        self.authorId = authorId
        self.content = content
        self.imageURLs = imageURLs
        self.likeCount = likeCount
        self.commentCount = commentCount
        self.createdAtMicroseconds = createdAtMicroseconds
        self.updatedAt = updatedAt
        self.viewerHasLiked = viewerHasLiked
    }

    public var createdAt: Date { UnixMicroseconds.date(createdAtMicroseconds) }
    /// Its place in newest-first lists (a profile's posts, the feed).
    public var keyset: TimeKeyset { TimeKeyset(createdAtMicroseconds: createdAtMicroseconds, id: id) }
}

/// A comment on a post (seed 004 `Comment`). Comments are not edited: delete and write anew.
public struct Comment: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var postId: UUID
    public var authorId: UUID
    public var content: String
    public var createdAtMicroseconds: Int64

    public init(id: UUID, postId: UUID, authorId: UUID, content: String, createdAtMicroseconds: Int64) {
        self.id = id
        self.postId = postId
        self.authorId = authorId
        self.content = content
        self.createdAtMicroseconds = createdAtMicroseconds
    }

    public var createdAt: Date { UnixMicroseconds.date(createdAtMicroseconds) }
    /// Its place in a post's comments, oldest first.
    public var keyset: TimeKeyset { TimeKeyset(createdAtMicroseconds: createdAtMicroseconds, id: id) }
}

/// What a like mutation asks for: `toggleLike` flips, `like` and `unlike` set the state and are
/// safe to repeat (as ``FollowAction`` for follows).
public enum LikeAction: String, Sendable, Hashable {
    case like, unlike, toggle
}

/// A like's outcome: the viewer's new state and the post's exact count after it.
public struct LikeOutcome: Sendable, Hashable {
    public var liked: Bool
    public var likeCount: Int
    /// Whether the call changed the like (a `like` of a post already liked, or an `unlike` of one
    /// not liked, changes nothing): only a change is an ``Activity``.
    public var changed: Bool
    /// The new like's time (microseconds since 1970), when the store says it: the time of its
    /// ``Activity`` and stored notification, so both have the same id (issue 54). Stores with a
    /// change feed need not: the feed reports the row's time itself.
    public var at: Int64?
    public init(liked: Bool, likeCount: Int, changed: Bool = true, at: Int64? = nil) {
        self.liked = liked
        self.likeCount = likeCount
        self.changed = changed
        self.at = at
    }
}

/// A new post's validated fields.
public struct PostDraft: Sendable, Hashable {
    public var content: String
    public var imageURLs: [String]
    public init(content: String, imageURLs: [String]) {
        self.content = content
        self.imageURLs = imageURLs
    }
}

/// Validated changes to a post: nil keeps a field.
public struct PostChanges: Sendable, Hashable {
    public var content: String?
    public var imageURLs: [String]?
    public init(content: String? = nil, imageURLs: [String]? = nil) {
        self.content = content
        self.imageURLs = imageURLs
    }
    public var isEmpty: Bool { content == nil && imageURLs == nil }
}
