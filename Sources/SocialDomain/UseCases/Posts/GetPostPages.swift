import Foundation

/// Pages of posts, batch-shaped: a profile's posts (newest first) and the viewer's feed (seed
/// 003: the posts of the profiles the viewer follows plus the viewer's own, newest first). The
/// gateway's loader asks for every list of one query level in one store call.
///
/// ```swift
/// let feed = try GetPostPages.feedRequest(first: 20, after: nil, viewer: viewer)
/// let pages = try await GetPostPages(posts: store).execute([feed], viewer: viewer)
/// ```
public struct GetPostPages: Sendable {
    public let posts: any PostStore

    public init(posts: any PostStore) { self.posts = posts }

    /// A profile's posts: Relay arguments checked (``PageSize/lists``; cursors of this list only).
    /// Anyone may read a visible profile's posts.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` naming the argument.
    public static func request(
        author: UUID, first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil
    ) throws -> PostPageRequest {
        let list = PostList.author(author)
        return PostPageRequest(list: list, page: try page(list, first: first, after: after, last: last, before: before))
    }

    /// The viewer's feed, forward only (a feed is read from the top, then on).
    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT`.
    public static func feedRequest(first: Int? = nil, after: String? = nil, viewer: Viewer) throws -> PostPageRequest {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewFeed) }
        let list = PostList.feed(viewer: me)
        return PostPageRequest(list: list, page: try page(list, first: first, after: after, last: nil, before: nil))
    }

    static func page(_ list: PostList, first: Int?, after: String?, last: Int?, before: String?) throws -> PageRequest {
        try PageRequest.validate(first: first, after: after, last: last, before: before) { cursor in
            guard case .timeline(let timeline, let key) = cursor, timeline == list.timeline else { return nil }
            return key
        }
    }

    /// One page per request, in request order, in one store call. Authors must be profiles the
    /// viewer may see (read in the same request); the store hides what RLS hides anyway.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(_ requests: [PostPageRequest], viewer: Viewer) async throws -> [PostPage] {
        guard !requests.isEmpty else { return [] }
        let pages = try await backend { try await posts.postPages(requests, viewer: viewer) }
        guard pages.count == requests.count else { throw DomainError.backendUnavailable }
        return pages
    }
}

/// Pages of posts' comments, oldest first, batch-shaped like ``GetPostPages``.
public struct GetCommentPages: Sendable {
    public let posts: any PostStore

    public init(posts: any PostStore) { self.posts = posts }

    /// One post's comments: Relay arguments checked (``PageSize/lists``).
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` naming the argument.
    public static func request(
        post: UUID, first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil
    ) throws -> CommentPageRequest {
        let page = try PageRequest.validate(first: first, after: after, last: last, before: before) { cursor in
            guard case .timeline(.comments(let owner), let key) = cursor, owner == post else { return nil }
            return key
        }
        return CommentPageRequest(post: post, page: page)
    }

    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(_ requests: [CommentPageRequest], viewer: Viewer) async throws -> [CommentPage] {
        guard !requests.isEmpty else { return [] }
        let pages = try await backend { try await posts.commentPages(requests, viewer: viewer) }
        guard pages.count == requests.count else { throw DomainError.backendUnavailable }
        return pages
    }
}

/// Posts and comments by id, batch-shaped (the loaders behind `Query.node`, `Comment.post`).
public struct BatchGetPosts: Sendable {
    public let posts: any PostStore

    public init(posts: any PostStore) { self.posts = posts }

    /// The visible posts among `ids` (at most 100 distinct ids a call).
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func load(ids: [UUID], viewer: Viewer) async throws -> [UUID: Post] {
        guard !ids.isEmpty else { return [:] }
        return try await backend { try await posts.posts(ids: ids, viewer: viewer) }
    }

    /// The visible comments among `ids`.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func loadComments(ids: [UUID], viewer: Viewer) async throws -> [UUID: Comment] {
        guard !ids.isEmpty else { return [:] }
        return try await backend { try await posts.comments(ids: ids, viewer: viewer) }
    }
}
