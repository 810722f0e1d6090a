import Foundation
import Hummingbird
import SocialDomain
import SupabaseSchema

/// The fake's posts, likes and comments: the tables and functions of migrations 20250301001300
/// onwards, with their rules (visibility follows the author's profile, counters move with each
/// write, likes and comments cascade with their post). Runs under ``SupabaseFake/lock``.
/// Arguments come in, and rows go out, as the `SupabaseSchema` types the stores use.
extension SupabaseFake {
    struct FakePost: Sendable {
        var id: UUID
        var author: UUID
        var content: String
        var imageURLs: [String]
        var likes: Set<UUID> = []
        var commentCount = 0
        var createdAtMicroseconds: Int64
        var updatedAtMicroseconds: Int64
        var key: (Int64, String) { (createdAtMicroseconds, id.lowercased) }
    }

    struct FakeComment: Sendable {
        var id: UUID
        var post: UUID
        var author: UUID
        var content: String
        var createdAtMicroseconds: Int64
        var key: (Int64, String) { (createdAtMicroseconds, id.lowercased) }
    }

    func postRoute(_ request: RecordedRequest, query: [(String, String)], caller: Caller) -> Response? {
        func arguments<T: Decodable>(_ type: T.Type) -> T? { Self.arguments(type, request) }
        switch (request.method, request.path) {
        case ("GET", "/rest/v1/posts"): return readPosts(query, caller: caller)
        case ("POST", "/rest/v1/posts"): return insertPost(arguments(NewPostRow.self), caller: caller)
        case ("PATCH", "/rest/v1/posts"):
            return patchPost(query, columns: arguments(FakeColumnUpdates.self) ?? FakeColumnUpdates(), body: arguments(PostPatch.self), caller: caller)
        case ("DELETE", "/rest/v1/posts"): return deletePost(query, caller: caller)
        case ("GET", "/rest/v1/comments"): return readComments(query, caller: caller)
        case ("POST", "/rest/v1/comments"): return insertComment(arguments(NewCommentRow.self), caller: caller)
        case ("DELETE", "/rest/v1/comments"): return deleteComment(query, caller: caller)
        case ("POST", "/rest/v1/rpc/post_pages"): return postPages(arguments(FakeRequests<TimelinePageArgument>.self), caller: caller)
        case ("POST", "/rest/v1/rpc/feed_page"): return feedPage(arguments(FeedArguments.self), caller: caller)
        case ("POST", "/rest/v1/rpc/feed_page_with_sources"): return feedPageWithSources(arguments(FeedArguments.self), caller: caller)
        case ("POST", "/rest/v1/rpc/comment_pages"): return commentPages(arguments(FakeRequests<TimelinePageArgument>.self), caller: caller)
        case ("POST", "/rest/v1/rpc/viewer_likes"): return viewerLikes(arguments(FakePostIds.self), caller: caller)
        case ("POST", "/rest/v1/rpc/toggle_like"): return toggleLike(arguments(FakeTarget.self), caller: caller)
        case ("POST", "/rest/v1/rpc/set_like"): return setLike(arguments(SetLikeArguments.self), caller: caller)
        default: return nil
        }
    }

    // MARK: Rows

    func postVisible(_ post: FakePost, _ caller: Caller) -> Bool {
        profilesById[post.author].map { visible($0, caller) } ?? false
    }

    func postRow(_ p: FakePost) -> PostRow {
        PostRow(
            id: p.id.lowercased, author_id: p.author.lowercased, content: p.content, image_urls: p.imageURLs,
            like_count: p.likes.count, comment_count: p.commentCount,
            created_at: Self.timestamp(p.createdAtMicroseconds), updated_at: Self.timestamp(p.updatedAtMicroseconds))
    }

    static func commentRow(_ c: FakeComment) -> CommentRow {
        CommentRow(
            id: c.id.lowercased, post_id: c.post.lowercased, author_id: c.author.lowercased, content: c.content,
            created_at: timestamp(c.createdAtMicroseconds))
    }

    /// The comments_read policy: the post visible, and the comment's author too.
    func commentVisible(_ comment: FakeComment, _ caller: Caller) -> Bool {
        (posts[comment.post].map { postVisible($0, caller) } ?? false)
            && (profilesById[comment.author].map { visible($0, caller) } ?? false)
    }

    func liked(_ post: FakePost, _ caller: Caller) -> Bool {
        if case .user(let me) = caller { return post.likes.contains(me) }
        return false
    }

    static func eqUUID(_ query: [(String, String)], _ name: String) -> UUID? {
        query.first(where: { $0.0 == name }).flatMap { $0.1.hasPrefix("eq.") ? UUID(uuidString: String($0.1.dropFirst(3))) : nil }
    }

    func adjustPostCount(_ author: UUID, by delta: Int) {
        profilesById[author]?.postCount += delta
    }

    // MARK: Tables

    func readPosts(_ query: [(String, String)], caller: Caller) -> Response {
        guard let ids = query.first(where: { $0.0 == "id" }).flatMap({ Self.inOperands($0.1) }) else {
            return Self.pgError(400, "PGRST100", "unsupported filter on posts")
        }
        let rows = ids.compactMap { UUID(uuidString: $0).flatMap { posts[$0] } }.filter { postVisible($0, caller) }
        return Self.rows(rows.sorted { $0.id.lowercased < $1.id.lowercased }.map(postRow))
    }

    func insertPost(_ body: NewPostRow?, caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table posts") }
        guard let body, UUID(uuidString: body.author_id) == me else {
            return Self.pgError(403, "42501", #"new row violates row-level security policy for table "posts""#)
        }
        let now = tick()
        let post = FakePost(
            id: UUID(), author: me, content: body.content, imageURLs: body.image_urls, createdAtMicroseconds: now,
            updatedAtMicroseconds: now)
        posts[post.id] = post
        postsByAuthor[me, default: []].append(post.id)
        adjustPostCount(me, by: 1)
        return Self.json(201, [postRow(post)])
    }

    /// `columns` for the grant check (every key sent), `body` for the values.
    func patchPost(_ query: [(String, String)], columns: FakeColumnUpdates, body: PostPatch?, caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table posts") }
        guard let id = Self.eqUUID(query, "id") else { return Self.pgError(400, "PGRST100", "missing id filter") }
        if let column = columns.columns.first(where: { !["content", "image_urls"].contains($0) }) {
            return Self.pgError(403, "42501", "permission denied for table posts (\(column))")
        }
        // RLS: only the author's own rows are updatable; anything else matches no row.
        guard var post = posts[id], post.author == me, Self.eqUUID(query, "author_id").map({ $0 == me }) ?? true else {
            return Self.json(200, [PostRow]())
        }
        if let content = body?.content { post.content = content }
        if let urls = body?.image_urls { post.imageURLs = urls }
        post.updatedAtMicroseconds = tick()
        posts[id] = post
        return Self.json(200, [postRow(post)])
    }

    func deletePost(_ query: [(String, String)], caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table posts") }
        guard let id = Self.eqUUID(query, "id"), let post = posts[id], post.author == me else { return Self.json(200, [IdRow]()) }
        posts[id] = nil
        postsByAuthor[me]?.removeAll { $0 == id }
        for commentId in commentsByPost[id] ?? [] { comments[commentId] = nil }
        commentsByPost[id] = nil
        adjustPostCount(me, by: -1)
        return Self.json(200, [IdRow(id: id.lowercased)])
    }

    func readComments(_ query: [(String, String)], caller: Caller) -> Response {
        guard let ids = query.first(where: { $0.0 == "id" }).flatMap({ Self.inOperands($0.1) }) else {
            return Self.pgError(400, "PGRST100", "unsupported filter on comments")
        }
        let rows = ids.compactMap { UUID(uuidString: $0).flatMap { comments[$0] } }
            .filter { commentVisible($0, caller) }
        return Self.rows(rows.sorted { $0.id.lowercased < $1.id.lowercased }.map(Self.commentRow))
    }

    func insertComment(_ body: NewCommentRow?, caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table comments") }
        guard let body, UUID(uuidString: body.author_id) == me,
              let postId = UUID(uuidString: body.post_id), let post = posts[postId], postVisible(post, caller)
        else { return Self.pgError(403, "42501", #"new row violates row-level security policy for table "comments""#) }
        let comment = FakeComment(id: UUID(), post: postId, author: me, content: body.content, createdAtMicroseconds: tick())
        comments[comment.id] = comment
        commentsByPost[postId, default: []].append(comment.id)
        posts[postId]?.commentCount += 1
        return Self.json(201, [Self.commentRow(comment)])
    }

    /// The `comments_delete` policy: the comment's author, or the post's.
    func deleteComment(_ query: [(String, String)], caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table comments") }
        guard let id = Self.eqUUID(query, "id"), let comment = comments[id], commentVisible(comment, caller),
              comment.author == me || posts[comment.post]?.author == me
        else { return Self.json(200, [IdRow]()) }
        comments[id] = nil
        commentsByPost[comment.post]?.removeAll { $0 == id }
        posts[comment.post]?.commentCount -= 1
        return Self.json(200, [IdRow(id: id.lowercased)])
    }

    // MARK: Functions

    /// Sorted newest first, cut at a keyset, `limit + 1` rows (the follow functions' recipe).
    static func page<T>(_ items: [T], key: (T) -> (Int64, String), newestFirst: Bool, request: TimelinePageArgument) -> [T] {
        page(items, key: key, newestFirst: newestFirst, backward: request.backward, limit: request.limit,
             cursor: request.cursor_us.map { ($0, request.cursor_id ?? "") })
    }

    static func page<T>(
        _ items: [T], key: (T) -> (Int64, String), newestFirst: Bool, backward: Bool, limit: Int, cursor: (Int64, String)?
    ) -> [T] {
        let fetch = min(max(limit, 0), 100) + 1
        let descending = newestFirst != backward
        var sorted = items.sorted { descending ? key($0) > key($1) : key($0) < key($1) }
        if let cursor { sorted = sorted.filter { descending ? key($0) < cursor : key($0) > cursor } }
        return Array(sorted.prefix(fetch))
    }

    func postPages(_ body: FakeRequests<TimelinePageArgument>?, caller: Caller) -> Response {
        guard let requests = body?.requests else { return Self.pgError(400, "PGRST202", "missing requests") }
        var rows: [PostPageRow] = []
        for (index, request) in requests.enumerated() {
            guard let author = request.author.flatMap(UUID.init(uuidString:)) else {
                return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
            }
            let visibleAuthor = profilesById[author].map { visible($0, caller) } ?? false
            let total = visibleAuthor ? profilesById[author]?.postCount ?? 0 : 0
            let candidates = visibleAuthor ? (postsByAuthor[author] ?? []).compactMap { posts[$0] } : []
            let page = Self.page(candidates, key: \.key, newestFirst: true, request: request)
            if page.isEmpty { rows.append(PostPageRow(request_index: index, total_count: total, post: nil, viewer_has_liked: nil)) }
            for post in page {
                rows.append(PostPageRow(request_index: index, total_count: total, post: postRow(post), viewer_has_liked: liked(post, caller)))
            }
        }
        return Self.rows(rows)
    }

    /// `feed_page`: the caller's posts and those of whom they follow, visible, newest first.
    func feedPage(_ body: FeedArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "42501", "authentication_required", details: "action=view_feed")
        }
        return Self.rows(feedRows(body, me: me, caller: caller))
    }

    /// The feed's keyset is `feed_page`'s arguments read as a timeline page's: `page_size`
    /// counts the extra row, `limit` does not.
    func feedRows(_ body: FeedArguments?, me: UUID, caller: Caller) -> [FeedRow] {
        let sources = Set([me] + (followsByFollower[me] ?? []).map { follows[$0] }.filter { $0.deletedAtMicroseconds == nil }.map(\.followee))
        let candidates = sources.flatMap { (postsByAuthor[$0] ?? []).compactMap { posts[$0] } }.filter { postVisible($0, caller) }
        let page = Self.page(
            candidates, key: \.key, newestFirst: true, backward: false, limit: max((body?.page_size ?? 21) - 1, 0),
            cursor: body?.after_us.map { ($0, body?.after_id ?? "") })
        return page.map { FeedRow(post: postRow($0), viewer_has_liked: liked($0, caller)) }
    }

    /// `feed_page_with_sources`: `feed_page`'s rows and the caller's active follows that RLS shows.
    func feedPageWithSources(_ body: FeedArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "PT401", "authentication_required", details: "action=view_feed")
        }
        let sources = (followsByFollower[me] ?? []).map { follows[$0] }.filter { follow in
            follow.deletedAtMicroseconds == nil && (profilesById[follow.followee].map { visible($0, caller) } ?? false)
        }.map { $0.followee.lowercased }.sorted()
        return Self.json(200, FeedWithSources(posts: feedRows(body, me: me, caller: caller), sources: sources))
    }

    func commentPages(_ body: FakeRequests<TimelinePageArgument>?, caller: Caller) -> Response {
        guard let requests = body?.requests else { return Self.pgError(400, "PGRST202", "missing requests") }
        var rows: [CommentPageRow] = []
        for (index, request) in requests.enumerated() {
            guard let postId = request.post.flatMap(UUID.init(uuidString:)) else {
                return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
            }
            let post = posts[postId].flatMap { postVisible($0, caller) ? $0 : nil }
            let candidates = post == nil ? [] : (commentsByPost[postId] ?? []).compactMap { comments[$0] }.filter { commentVisible($0, caller) }
            let page = Self.page(candidates, key: \.key, newestFirst: false, request: request)
            let total = post?.commentCount ?? 0
            if page.isEmpty { rows.append(CommentPageRow(request_index: index, total_count: total, comment: nil)) }
            for comment in page { rows.append(CommentPageRow(request_index: index, total_count: total, comment: Self.commentRow(comment))) }
        }
        return Self.rows(rows)
    }

    func viewerLikes(_ body: FakePostIds?, caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.rows([String]()) }
        let ids = (body?.post_ids ?? []).compactMap(UUID.init(uuidString:))
        return Self.rows(ids.filter { posts[$0].map { $0.likes.contains(me) && postVisible($0, caller) } ?? false }.map(\.lowercased))
    }

    func toggleLike(_ body: FakeTarget?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "42501", "authentication_required", details: "action=like_posts")
        }
        guard let id = body.flatMap({ UUID(uuidString: $0.target) }), var post = posts[id], postVisible(post, caller) else {
            return Self.condition(400, "P0001", "post_not_found")
        }
        let liked = !post.likes.contains(me)
        if liked { post.likes.insert(me) } else { post.likes.remove(me) }
        posts[id] = post
        return Self.json(200, LikeOutcomeRow(liked: liked, like_count: post.likes.count))
    }

    /// `set_like`: as the migration's function, the like set or taken away, and whether that
    /// changed anything (a repeat does not).
    func setLike(_ body: SetLikeArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "42501", "authentication_required", details: "action=like_posts")
        }
        guard let body, let id = UUID(uuidString: body.target), var post = posts[id], postVisible(post, caller) else {
            return Self.condition(400, "P0001", "post_not_found")
        }
        let changed = body.liked ? post.likes.insert(me).inserted : post.likes.remove(me) != nil
        posts[id] = post
        return Self.json(200, LikeOutcomeRow(liked: body.liked, like_count: post.likes.count, changed: changed))
    }
}
