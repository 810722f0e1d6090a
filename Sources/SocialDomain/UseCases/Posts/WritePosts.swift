import Foundation

/// Writes a post by the viewer (seed 004 `Post`): content trimmed and required, image URLs
/// checked (``PostRules``).
///
/// ```swift
/// let post = try await CreatePost(posts: store).execute(content: " Hi ", imageURLs: [], viewer: viewer)
/// ```
public struct CreatePost: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (content, imageURLs), `BACKEND_UNAVAILABLE`.
    public func execute(content: String, imageURLs: [String], viewer: Viewer) async throws -> Post {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .createPosts) }
        let draft = PostDraft(content: try PostRules.content(content), imageURLs: try PostRules.imageURLs(imageURLs))
        return try await backend { try await posts.createPost(draft, viewer: viewer) }
    }
}

/// Changes the viewer's own post: nil keeps a field; the rules of ``CreatePost``.
public struct UpdatePost: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT`, `NOT_FOUND` (missing or hidden),
    ///   `FORBIDDEN` (someone else's), `BACKEND_UNAVAILABLE`.
    public func execute(id: UUID, content: String?, imageURLs: [String]?, viewer: Viewer) async throws -> Post {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .editPosts) }
        let changes = PostChanges(content: try content.map(PostRules.content), imageURLs: try imageURLs.map(PostRules.imageURLs))
        let post = try await PostOwnership.ownPost(id, of: me, in: posts, viewer: viewer)
        if changes.isEmpty { return post }
        return try await backend { try await posts.updatePost(id: id, changes: changes, viewer: viewer) }
    }
}

/// Deletes the viewer's own post, with its likes and comments.
public struct DeletePost: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// The post as it was.
    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `FORBIDDEN`, `BACKEND_UNAVAILABLE`.
    public func execute(id: UUID, viewer: Viewer) async throws -> Post {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .deletePosts) }
        let post = try await PostOwnership.ownPost(id, of: me, in: posts, viewer: viewer)
        try await backend { try await posts.deletePost(id: id, viewer: viewer) }
        return post
    }
}

/// The ownership check shared by the post writes: NOT_FOUND for what the viewer cannot see,
/// FORBIDDEN for what they see but did not write.
enum PostOwnership {
    static func ownPost(_ id: UUID, of me: UUID, in posts: any PostStore, viewer: Viewer) async throws -> Post {
        guard let post = try await backend({ try await posts.posts(ids: [id], viewer: viewer) })[id] else {
            throw DomainError.postNotFound
        }
        guard post.authorId == me else { throw DomainError.notPostAuthor }
        return post
    }
}

/// Likes a post if the viewer does not, else unlikes it (like ``ToggleFollow``): atomic, and
/// the count returned is exact.
public struct ToggleLike: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(postId: UUID, viewer: Viewer) async throws -> LikeOutcome {
        try await LikeChange.apply(.toggle, to: postId, viewer: viewer, store: posts)
    }
}

/// Makes the viewer like a post; liking it again succeeds and changes nothing (no second like,
/// count unchanged, ``LikeOutcome/changed`` false), so a client may retry it freely.
///
/// ```swift
/// let outcome = try await LikePost(posts: store).execute(postId: id, viewer: alice)
/// outcome.liked   // true, however often it is called
/// ```
public struct LikePost: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(postId: UUID, viewer: Viewer) async throws -> LikeOutcome {
        try await LikeChange.apply(.like, to: postId, viewer: viewer, store: posts)
    }
}

/// Takes the viewer's like back; unliking a post not liked succeeds and changes nothing.
public struct UnlikePost: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(postId: UUID, viewer: Viewer) async throws -> LikeOutcome {
        try await LikeChange.apply(.unlike, to: postId, viewer: viewer, store: posts)
    }
}

/// The rules shared by the three like mutations: signed in, then the store's atomic change.
enum LikeChange {
    static func apply(_ action: LikeAction, to postId: UUID, viewer: Viewer, store: any PostStore) async throws -> LikeOutcome {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .likePosts) }
        return try await backend { try await store.changeLike(postId: postId, action: action, viewer: viewer) }
    }
}

/// Writes the viewer's comment on a post they can see.
public struct AddComment: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (content), `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(postId: UUID, content: String, viewer: Viewer) async throws -> Comment {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .comment) }
        let text = try PostRules.comment(content)
        return try await backend { try await posts.addComment(postId: postId, content: text, viewer: viewer) }
    }
}

/// Deletes a comment the viewer wrote, or any comment on the viewer's own post.
public struct DeleteComment: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// The comment as it was.
    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `FORBIDDEN`, `BACKEND_UNAVAILABLE`.
    public func execute(id: UUID, viewer: Viewer) async throws -> Comment {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .deleteComments) }
        guard let comment = try await backend({ try await posts.comments(ids: [id], viewer: viewer) })[id] else {
            throw DomainError.commentNotFound
        }
        if comment.authorId != me {
            let post = try await backend { try await posts.posts(ids: [comment.postId], viewer: viewer) }[comment.postId]
            guard post?.authorId == me else { throw DomainError.notCommentDeleter }
        }
        try await backend { try await posts.deleteComment(id: id, viewer: viewer) }
        return comment
    }
}
