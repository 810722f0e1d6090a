import Foundation

/// Which list of posts a page belongs to: one profile's posts, or a viewer's feed.
public enum PostList: Sendable, Hashable {
    case author(UUID)
    case feed(viewer: UUID)

    var timeline: PageCursor.Timeline {
        switch self {
        case .author(let id): .posts(author: id)
        case .feed(let viewer): .feed(viewer: viewer)
        }
    }
}

/// One page of one list of posts, as asked of a ``PostStore``. Lists are newest first
/// (created_at, id descending).
public struct PostPageRequest: Sendable, Hashable {
    public var list: PostList
    public var page: PageRequest
    public init(list: PostList, page: PageRequest = PageRequest()) {
        self.list = list
        self.page = page
    }
}

/// A post with its cursor.
public struct PostEdge: Sendable, Hashable {
    public var post: Post
    public var cursor: String
    public init(list: PostList, post: Post) {
        self.post = post
        cursor = PageCursor.timeline(list.timeline, post.keyset).encoded
    }
}

/// A page of posts, newest first, with Relay's page info. `totalCount` is the author's stored
/// post count for a profile's posts; a feed has none (nil).
public struct PostPage: Sendable, Hashable {
    public var list: PostList
    public var edges: [PostEdge]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public var totalCount: Int?
    /// For a feed: the profiles it draws from (the viewer and everyone they follow), when the
    /// store read them with the page; nil when it did not. A cache keys the feed's freshness on
    /// them: any new post by one of them makes it stale.
    public var sources: [UUID]?

    public init(
        list: PostList, edges: [PostEdge], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int?, sources: [UUID]? = nil
    ) {
        self.sources = sources
        self.list = list
        self.edges = edges
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }

    /// Builds a page from `limit + 1` posts fetched in the request's direction (newest first
    /// forward, oldest first backward), whatever order they came in.
    public static func assemble(request: PostPageRequest, fetched: [Post], totalCount: Int?, sources: [UUID]? = nil) -> PostPage {
        let backward = request.page.direction == .backward
        let ordered = fetched.sorted { backward ? $0.keyset < $1.keyset : $1.keyset < $0.keyset }
        var (posts, more) = request.page.trim(ordered)
        if backward { posts.reverse() }
        let edges = posts.map { PostEdge(list: request.list, post: $0) }
        return backward
            ? PostPage(list: request.list, edges: edges, hasNextPage: request.page.cursor != nil, hasPreviousPage: more,
                       totalCount: totalCount, sources: sources)
            : PostPage(list: request.list, edges: edges, hasNextPage: more, hasPreviousPage: request.page.cursor != nil, totalCount: totalCount, sources: sources)
    }
}

/// One page of one post's comments, oldest first (created_at, id ascending).
public struct CommentPageRequest: Sendable, Hashable {
    public var post: UUID
    public var page: PageRequest
    public init(post: UUID, page: PageRequest = PageRequest()) {
        self.post = post
        self.page = page
    }
}

/// A comment with its cursor.
public struct CommentEdge: Sendable, Hashable {
    public var comment: Comment
    public var cursor: String
    public init(comment: Comment) {
        self.comment = comment
        cursor = PageCursor.timeline(.comments(post: comment.postId), comment.keyset).encoded
    }
}

/// A page of a post's comments, oldest first; `totalCount` is the post's stored comment count.
public struct CommentPage: Sendable, Hashable {
    public var post: UUID
    public var edges: [CommentEdge]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public var totalCount: Int

    public init(post: UUID, edges: [CommentEdge], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int) {
        self.post = post
        self.edges = edges
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }

    /// Builds a page from `limit + 1` comments fetched in the request's direction (oldest first
    /// forward, newest first backward), whatever order they came in.
    public static func assemble(request: CommentPageRequest, fetched: [Comment], totalCount: Int) -> CommentPage {
        let backward = request.page.direction == .backward
        let ordered = fetched.sorted { backward ? $1.keyset < $0.keyset : $0.keyset < $1.keyset }
        var (comments, more) = request.page.trim(ordered)
        if backward { comments.reverse() }
        let edges = comments.map(CommentEdge.init)
        return backward
            ? CommentPage(post: request.post, edges: edges, hasNextPage: request.page.cursor != nil, hasPreviousPage: more, totalCount: totalCount)
            : CommentPage(post: request.post, edges: edges, hasNextPage: more, hasPreviousPage: request.page.cursor != nil, totalCount: totalCount)
    }
}
