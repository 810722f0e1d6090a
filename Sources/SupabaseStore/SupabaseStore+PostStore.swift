import Foundation
import SocialDomain
import SupabaseSchema

/// Posts, likes and comments over PostgREST (migrations 20250301001300 onwards): pages through
/// `post_pages`, `feed_page` and `comment_pages`, likes through `toggle_like` and `viewer_likes`,
/// writes as plain table requests that RLS decides.
extension SupabaseStore: PostStore {
    static let postColumns = PostRow.columnNames.joined(separator: ",")
    static let commentColumns = CommentRow.columnNames.joined(separator: ",")

    /// `GET /rest/v1/posts?id=in.(...)` and, for a signed-in viewer, `POST /rest/v1/rpc/viewer_likes`
    /// at the same time.
    public func posts(ids: [UUID], viewer: Viewer) async throws -> [UUID: Post] {
        try await call("postsByID") {
            var seen = Set<UUID>()
            let keys = ids.filter { seen.insert($0).inserted }
            var result: [UUID: Post] = [:]
            for chunk in keys.chunked(Self.maxKeysPerRequest) {
                async let liked = likedPosts(Array(chunk), viewer: viewer)
                let request = SupabaseRequest(
                    method: .get, service: .rest, path: "/rest/v1/posts",
                    query: [("select", Self.postColumns), ("id", PostgRESTQuery.inList(chunk.map(\.lowercased)))],
                    idempotent: true, operation: "postsByID")
                let rows = try decode([PostRow].self, try await rest(request, viewer: viewer), "postsByID")
                let likes = try await liked
                for row in rows {
                    let post = try row.post(viewerHasLiked: false)
                    result[post.id] = try row.post(viewerHasLiked: likes.contains(post.id))
                }
            }
            return result
        }
    }

    /// `POST /rest/v1/rpc/viewer_likes` with `{"post_ids": [...]}`: which of them the viewer likes.
    func likedPosts(_ ids: [UUID], viewer: Viewer) async throws -> Set<UUID> {
        guard viewer.userId != nil, !ids.isEmpty else { return [] }
        let request = SupabaseRequest(
            method: .post, service: .rest, path: "/rest/v1/rpc/viewer_likes",
            headers: [("Content-Type", "application/json")], body: try Self.json(["post_ids": ids.map(\.lowercased)]),
            idempotent: true, operation: "viewerLikes")
        let liked = try decode([String].self, try await rest(request, viewer: viewer), "viewerLikes")
        return Set(liked.compactMap(UUID.init(parsing:)))
    }

    /// Profiles' posts in one `post_pages` request; a feed in one `feed_page_with_sources`
    /// request (its posts and the profiles it draws from, migration 20250301001800).
    public func postPages(_ requests: [PostPageRequest], viewer: Viewer) async throws -> [PostPage] {
        try await call("postPages") {
            var pages = [PostPage?](repeating: nil, count: requests.count)
            let authorIndices = requests.indices.filter { if case .author = requests[$0].list { true } else { false } }
            if !authorIndices.isEmpty {
                let authorRequests = authorIndices.map { requests[$0] }
                let arguments = authorRequests.map { request -> TimelinePageArgument in
                    guard case .author(let id) = request.list else { preconditionFailure() }
                    return TimelinePageArgument(author: id, page: request.page)
                }
                let request = SupabaseRequest(
                    method: .post, service: .rest, path: "/rest/v1/rpc/post_pages",
                    headers: [("Content-Type", "application/json")], body: try Self.json(["requests": arguments]),
                    idempotent: true, operation: "postPages")
                let rows = try decode([PostPageRow].self, try await rest(request, viewer: viewer), "postPages")
                for (index, page) in zip(authorIndices, try PostPageRow.pages(rows, answering: authorRequests)) { pages[index] = page }
            }
            for index in requests.indices where pages[index] == nil {
                pages[index] = try await feedPage(requests[index], viewer: viewer)
            }
            return pages.compactMap { $0 }
        }
    }

    /// `POST /rest/v1/rpc/feed_page_with_sources` with `{after_us, after_id, page_size}`.
    func feedPage(_ page: PostPageRequest, viewer: Viewer) async throws -> PostPage {
        guard case .feed(let me) = page.list, viewer.userId == me else { throw DomainError.notAuthorized }
        let arguments = FeedArguments(
            after_us: page.page.cursor?.createdAtMicroseconds, after_id: page.page.cursor?.id.lowercased,
            page_size: page.page.rowsToFetch)
        let request = SupabaseRequest(
            method: .post, service: .rest, path: "/rest/v1/rpc/feed_page_with_sources",
            headers: [("Content-Type", "application/json")], body: try Self.json(arguments),
            idempotent: true, operation: "feedPage")
        return try decode(FeedWithSources.self, try await rest(request, viewer: viewer), "feedPage").page(page, viewer: me)
    }

    /// `GET /rest/v1/comments?id=in.(...)`: RLS leaves out comments on hidden posts.
    public func comments(ids: [UUID], viewer: Viewer) async throws -> [UUID: Comment] {
        try await call("commentsByID") {
            var seen = Set<UUID>()
            let keys = ids.filter { seen.insert($0).inserted }
            var result: [UUID: Comment] = [:]
            for chunk in keys.chunked(Self.maxKeysPerRequest) {
                let request = SupabaseRequest(
                    method: .get, service: .rest, path: "/rest/v1/comments",
                    query: [("select", Self.commentColumns), ("id", PostgRESTQuery.inList(chunk.map(\.lowercased)))],
                    idempotent: true, operation: "commentsByID")
                for row in try decode([CommentRow].self, try await rest(request, viewer: viewer), "commentsByID") {
                    let comment = try row.comment()
                    result[comment.id] = comment
                }
            }
            return result
        }
    }

    /// `POST /rest/v1/rpc/comment_pages` with every page of a query level.
    public func commentPages(_ requests: [CommentPageRequest], viewer: Viewer) async throws -> [CommentPage] {
        try await call("commentPages") {
            guard !requests.isEmpty else { return [] }
            let arguments = requests.map { TimelinePageArgument(post: $0.post, page: $0.page) }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/comment_pages",
                headers: [("Content-Type", "application/json")], body: try Self.json(["requests": arguments]),
                idempotent: true, operation: "commentPages")
            let rows = try decode([CommentPageRow].self, try await rest(request, viewer: viewer), "commentPages")
            return try CommentPageRow.pages(rows, answering: requests)
        }
    }

    /// `POST /rest/v1/rpc/liker_pages` with every `Post.likers` page of a query level
    /// (migration 20250301004100).
    public func likerPages(_ requests: [LikerPageRequest], viewer: Viewer) async throws -> [LikerPage] {
        try await call("likerPages") {
            guard !requests.isEmpty else { return [] }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/liker_pages",
                headers: [("Content-Type", "application/json")], body: try Self.json(LikerPagesArguments(requests)),
                idempotent: true, operation: "likerPages")
            let rows = try decode([LikerPageRow].self, try await rest(request, viewer: viewer), "likerPages")
            return try LikerPageRow.pages(rows, answering: requests)
        }
    }

    /// `POST /rest/v1/posts` with `Prefer: return=representation`.
    public func createPost(_ draft: PostDraft, viewer: Viewer) async throws -> Post {
        try await call("createPost") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .createPosts) }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/posts", query: [("select", Self.postColumns)],
                headers: [("Content-Type", "application/json"), ("Prefer", "return=representation")],
                body: try Self.json(NewPostRow(author: me, draft: draft)), idempotent: false, operation: "createPost")
            guard let row = try decode([PostRow].self, try await rest(request, viewer: viewer), "createPost").first else {
                throw SupabaseFailure.malformed("createPost: no row")
            }
            return try row.post(viewerHasLiked: false)
        }
    }

    /// `PATCH /rest/v1/posts?id=eq.<id>&author_id=eq.<me>` with the changed columns; no row
    /// back means not there or not the viewer's.
    public func updatePost(id: UUID, changes: PostChanges, viewer: Viewer) async throws -> Post {
        try await call("updatePost") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .editPosts) }
            let request = SupabaseRequest(
                method: .patch, service: .rest, path: "/rest/v1/posts",
                query: [("id", "eq.\(id.lowercased)"), ("author_id", "eq.\(me.lowercased)"), ("select", Self.postColumns)],
                headers: [("Content-Type", "application/json"), ("Prefer", "return=representation")],
                body: try Self.json(PostPatch(changes)), idempotent: true, operation: "updatePost")
            guard let row = try decode([PostRow].self, try await rest(request, viewer: viewer, forbidden: .notPostAuthor), "updatePost").first
            else { throw DomainError.postNotFound }
            let liked = try await likedPosts([id], viewer: viewer)
            return try row.post(viewerHasLiked: liked.contains(id))
        }
    }

    /// `DELETE /rest/v1/posts?id=eq.<id>&author_id=eq.<me>`; likes and comments go by cascade.
    public func deletePost(id: UUID, viewer: Viewer) async throws {
        try await call("deletePost") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .deletePosts) }
            let request = SupabaseRequest(
                method: .delete, service: .rest, path: "/rest/v1/posts",
                query: [("id", "eq.\(id.lowercased)"), ("author_id", "eq.\(me.lowercased)"), ("select", "id")],
                headers: [("Prefer", "return=representation")], idempotent: true, operation: "deletePost")
            guard try !decode([IdRow].self, try await rest(request, viewer: viewer, forbidden: .notPostAuthor), "deletePost").isEmpty
            else { throw DomainError.postNotFound }
        }
    }

    /// `.toggle`: `POST /rest/v1/rpc/toggle_like` with `{"target": "<post>"}`. `.like` and
    /// `.unlike`: `POST /rest/v1/rpc/set_like` with `{"target": "<post>", "liked": true|false}`,
    /// which answers whether it changed anything. Never retried (a toggle is not idempotent; the
    /// other two are, but share the toggle's path through the request layer).
    public func changeLike(postId: UUID, action: LikeAction, viewer: Viewer) async throws -> LikeOutcome {
        try await call("toggleLike") {
            let request: SupabaseRequest
            switch action {
            case .toggle:
                request = SupabaseRequest(
                    method: .post, service: .rest, path: "/rest/v1/rpc/toggle_like",
                    headers: [("Content-Type", "application/json")], body: try Self.json(["target": postId.lowercased]),
                    idempotent: false, operation: "toggleLike")
            case .like, .unlike:
                request = SupabaseRequest(
                    method: .post, service: .rest, path: "/rest/v1/rpc/set_like",
                    headers: [("Content-Type", "application/json")],
                    body: try Self.json(SetLikeArguments(target: postId.lowercased, liked: action == .like)),
                    idempotent: false, operation: action == .like ? "like" : "unlike")
            }
            return try decode(LikeOutcomeRow.self, try await rest(request, viewer: viewer, forbidden: .postNotFound), "toggleLike").outcome
        }
    }

    /// `POST /rest/v1/comments`; RLS refuses a comment on a post the viewer cannot see (42501,
    /// read as NOT_FOUND: the post does not exist for them).
    public func addComment(postId: UUID, content: String, viewer: Viewer) async throws -> Comment {
        try await call("addComment") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .comment) }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/comments", query: [("select", Self.commentColumns)],
                headers: [("Content-Type", "application/json"), ("Prefer", "return=representation")],
                body: try Self.json(NewCommentRow(post: postId, author: me, content: content)),
                idempotent: false, operation: "addComment")
            guard let row = try decode([CommentRow].self, try await rest(request, viewer: viewer, forbidden: .postNotFound), "addComment").first
            else { throw SupabaseFailure.malformed("addComment: no row") }
            return try row.comment()
        }
    }

    /// `DELETE /rest/v1/comments?id=eq.<id>`: RLS lets the comment's author or the post's author delete it.
    public func deleteComment(id: UUID, viewer: Viewer) async throws {
        try await call("deleteComment") {
            let request = SupabaseRequest(
                method: .delete, service: .rest, path: "/rest/v1/comments",
                query: [("id", "eq.\(id.lowercased)"), ("select", "id")],
                headers: [("Prefer", "return=representation")], idempotent: true, operation: "deleteComment")
            guard try !decode([IdRow].self, try await rest(request, viewer: viewer, forbidden: .notCommentDeleter), "deleteComment").isEmpty
            else { throw DomainError.commentNotFound }
        }
    }
}
