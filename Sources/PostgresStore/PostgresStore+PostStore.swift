import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Posts, likes and comments through the migrations' functions (20250301001300 onwards), each
/// call one statement as the caller (a feed two, in the same transaction: its page and its
/// sources).
extension PostgresStore: PostStore {
    /// `json_build_object(...)` of a post row under `alias`: the keys of ``PostRow``.
    static func postObject(_ alias: String) -> String {
        "json_build_object(" + PostRow.columnNames.map { "'\($0)', \(alias).\($0)" }.joined(separator: ", ") + ")"
    }

    public func posts(ids: [UUID], viewer: Viewer) async throws -> [UUID: Post] {
        let keys = Array(Set(ids))
        guard !keys.isEmpty else { return [:] }
        return try await read("postsByID", viewer: viewer) { connection, logger in
            var binds = PostgresBindings()
            binds.append(keys)
            let sql = """
                select coalesce(json_agg(json_build_object('post', \(Self.postObject("p")),
                  'viewer_has_liked', exists (select 1 from public.post_likes l where l.post_id = p.id and l.profile_id = auth.uid())
                )), '[]')::text from public.posts p where p.id = any($1::uuid[])
                """
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            let posts = try await Self.decodeJSON([FeedRow].self, from: rows, "postsByID").map { try $0.post.post(viewerHasLiked: $0.viewer_has_liked) }
            return Dictionary(posts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public func postPages(_ requests: [PostPageRequest], viewer: Viewer) async throws -> [PostPage] {
        guard !requests.isEmpty else { return [] }
        let authorIndices = requests.indices.filter { if case .author = requests[$0].list { true } else { false } }
        let authorRequests = authorIndices.map { requests[$0] }
        let arguments = try Self.json(authorRequests.map { request -> TimelinePageArgument in
            guard case .author(let id) = request.list else { preconditionFailure() }
            return TimelinePageArgument(author: id, page: request.page)
        })
        return try await read("postPages", viewer: viewer) { connection, logger in
            var pages = [PostPage?](repeating: nil, count: requests.count)
            if !authorRequests.isEmpty {
                let rows = try await connection.execute(PostPagesStatement(requests: arguments), logger: logger)
                let decoded = try await Self.decodeJSON([PostPageRow].self, fromTexts: rows, "postPages")
                for (index, page) in zip(authorIndices, try PostPageRow.pages(decoded, answering: authorRequests)) { pages[index] = page }
            }
            for index in requests.indices where pages[index] == nil {
                pages[index] = try await Self.feedPage(requests[index], viewer: viewer, connection, logger)
            }
            return pages.compactMap { $0 }
        }
    }

    static func feedPage(_ request: PostPageRequest, viewer: Viewer, _ connection: PostgresConnection, _ logger: Logger) async throws -> PostPage {
        guard case .feed(let me) = request.list, viewer.userId == me else { throw DomainError.notAuthorized }
        let statement = FeedPageStatement(
            afterMicroseconds: request.page.cursor?.createdAtMicroseconds, afterId: request.page.cursor?.id, pageSize: request.page.rowsToFetch)
        let rows = try await connection.execute(statement, logger: logger)
        return try await decodeJSON(FeedWithSources.self, fromTexts: rows, "feedPage").page(request, viewer: me)
    }

    public func comments(ids: [UUID], viewer: Viewer) async throws -> [UUID: Comment] {
        let keys = Array(Set(ids))
        guard !keys.isEmpty else { return [:] }
        return try await read("commentsByID", viewer: viewer) { connection, logger in
            var binds = PostgresBindings()
            binds.append(keys)
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "select coalesce(json_agg(public.comment_json(c)), '[]')::text from public.comments c where c.id = any($1::uuid[])",
                              binds: binds), logger: logger)
            let comments = try await Self.decodeJSON([CommentRow].self, from: rows, "commentsByID").map { try $0.comment() }
            return Dictionary(comments.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public func commentPages(_ requests: [CommentPageRequest], viewer: Viewer) async throws -> [CommentPage] {
        guard !requests.isEmpty else { return [] }
        let arguments = try Self.json(requests.map { TimelinePageArgument(post: $0.post, page: $0.page) })
        return try await read("commentPages", viewer: viewer) { connection, logger in
            var rows: [(requestIndex: Int, totalCount: Int, comment: Comment?)] = []
            for try await row in try await connection.execute(CommentPagesStatement(requests: arguments), logger: logger) {
                rows.append(row)
            }
            return try CommentPageRow.pages(rows, answering: requests)
        }
    }

    /// Migration 20250301004100's `liker_pages`: every page of a query level in one statement.
    public func likerPages(_ requests: [LikerPageRequest], viewer: Viewer) async throws -> [LikerPage] {
        guard !requests.isEmpty else { return [] }
        let arguments = try Self.json(LikerPagesArguments(requests).requests)
        return try await read("likerPages", viewer: viewer) { connection, logger in
            let rows = try await connection.query("select public.liker_pages(\(arguments)::jsonb)::text", logger: logger)
            return try LikerPageRow.pages(try await Self.decodeJSON([LikerPageRow].self, from: rows, "likerPages"), answering: requests)
        }
    }

    public func createPost(_ draft: PostDraft, viewer: Viewer) async throws -> Post {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .createPosts) }
        return try await call("createPost", viewer: viewer) { connection, logger in
            let rows = try await connection.query("""
                with p as (insert into public.posts (author_id, content, image_urls)
                           values (auth.uid(), \(draft.content), \(draft.imageURLs)::text[]) returning *)
                select \(unescaped: Self.postObject("p"))::text from p
                """, logger: logger)
            return try await Self.decodeJSON(PostRow.self, from: rows, "createPost").post(viewerHasLiked: false)
        }
    }

    public func updatePost(id: UUID, changes: PostChanges, viewer: Viewer) async throws -> Post {
        try await call("updatePost", viewer: viewer, forbidden: .notPostAuthor) { connection, logger in
            let rows = try await connection.query("""
                with p as (update public.posts set content = coalesce(\(changes.content)::text, content),
                             image_urls = coalesce(\(changes.imageURLs)::text[], image_urls)
                           where id = \(id) and author_id = auth.uid() returning *)
                select json_build_object('post', \(unescaped: Self.postObject("p")),
                  'viewer_has_liked', exists (select 1 from public.post_likes l where l.post_id = p.id and l.profile_id = auth.uid()))::text
                from p
                """, logger: logger)
            var text: String?
            for try await value in rows.decode(String.self) { text = value }
            guard let text else { throw DomainError.postNotFound }
            let row = try JSONDecoder().decode(FeedRow.self, from: Data(text.utf8))
            return try row.post.post(viewerHasLiked: row.viewer_has_liked)
        }
    }

    public func deletePost(id: UUID, viewer: Viewer) async throws {
        try await call("deletePost", viewer: viewer, forbidden: .notPostAuthor) { connection, logger in
            let rows = try await connection.query(
                "with d as (delete from public.posts where id = \(id) and author_id = auth.uid() returning 1) select count(*)::int from d",
                logger: logger)
            for try await count in rows.decode(Int.self) where count > 0 { return }
            throw DomainError.postNotFound
        }
    }

    /// `toggle_like` for `.toggle`, `set_like` (which says whether it changed anything) for
    /// `.like` and `.unlike`.
    public func changeLike(postId: UUID, action: LikeAction, viewer: Viewer) async throws -> LikeOutcome {
        try await call("toggleLike", viewer: viewer, forbidden: .postNotFound) { connection, logger in
            let rows = switch action {
            case .toggle: try await connection.query("select public.toggle_like(\(postId)::uuid)::text", logger: logger)
            case .like, .unlike:
                try await connection.query(
                    "select public.set_like(\(postId)::uuid, \(action == .like)::boolean)::text", logger: logger)
            }
            return try await Self.decodeJSON(LikeOutcomeRow.self, from: rows, "toggleLike").outcome
        }
    }

    /// RLS refuses a comment on a post the viewer cannot see (42501): NOT_FOUND for them.
    public func addComment(postId: UUID, content: String, viewer: Viewer) async throws -> Comment {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .comment) }
        return try await call("addComment", viewer: viewer, forbidden: .postNotFound) { connection, logger in
            let rows = try await connection.query("""
                with c as (insert into public.comments (post_id, author_id, content) values (\(postId), auth.uid(), \(content)) returning *)
                select public.comment_json(c)::text from c
                """, logger: logger)
            return try await Self.decodeJSON(CommentRow.self, from: rows, "addComment").comment()
        }
    }

    public func deleteComment(id: UUID, viewer: Viewer) async throws {
        try await call("deleteComment", viewer: viewer, forbidden: .notCommentDeleter) { connection, logger in
            let rows = try await connection.query(
                "with d as (delete from public.comments where id = \(id) returning 1) select count(*)::int from d", logger: logger)
            for try await count in rows.decode(Int.self) where count > 0 { return }
            throw DomainError.commentNotFound
        }
    }
}
