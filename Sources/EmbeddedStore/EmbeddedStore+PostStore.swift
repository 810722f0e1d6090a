import Foundation
import GRDB
import SocialDomain

/// Posts, likes and comments. Visibility follows the author's profile (the `posts_read`,
/// `comments_read` policies, emulated by joining the author with ``ProfileColumns/visible(_:)``);
/// counters move by trigger in the writing transaction.
extension EmbeddedStore: PostStore {
    public func posts(ids: [UUID], viewer: Viewer) async throws -> [UUID: Post] {
        try await call(.postsByID) {
            guard !ids.isEmpty else { return [:] }
            let keys = Array(Set(ids.map(\.lowercased)))
            return try read { db in
                var result: [UUID: Post] = [:]
                for chunk in keys.chunked(Self.maxKeysPerStatement) {
                    let sql = "SELECT \(PostColumns.select("p")) FROM posts p JOIN profiles a ON a.id = p.author_id "
                        + "WHERE p.id IN (\(placeholders(chunk.count))) AND \(ProfileColumns.visible("a"))"
                    let arguments = [viewer.sqlId] + StatementArguments(chunk) + [viewer.sqlId]
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
                        let post = try PostColumns.decode(row)
                        result[post.id] = post
                    }
                }
                return result
            }
        }
    }

    /// Each page one walk of `posts_author_created_idx` per author cut at `limit + 1` rows; a
    /// feed walks it once for each profile it draws from (the viewer and whom they follow) and
    /// merges, so a page costs at most `(sources) x (limit + 1)` index rows, never a scan of
    /// every post of every followed profile.
    public func postPages(_ requests: [PostPageRequest], viewer: Viewer) async throws -> [PostPage] {
        try await call(.postPages) {
            try read { db in
                try requests.map { request in
                    switch request.list {
                    case .author(let author):
                        let total = try Int.fetchOne(
                            db.cachedStatement(sql: "SELECT post_count FROM profiles a WHERE a.id = ? AND \(ProfileColumns.visible("a"))"),
                            arguments: [author.lowercased, viewer.sqlId]) ?? 0
                        let posts = total == 0 && request.page.cursor == nil
                            ? [] : try Self.authorPosts(db, author: author, page: request.page, viewer: viewer)
                        return PostPage.assemble(request: request, fetched: posts, totalCount: total)
                    case .feed(let me):
                        guard viewer.userId == me else { throw DomainError.notAuthorized }
                        return try Self.feedPage(db, request, me: me, viewer: viewer)
                    }
                }
            }
        }
    }

    /// A feed page in two steps: the keys `(created_at, id)` of up to `limit + 1` posts from each
    /// visible source (the viewer and whom they follow), read from `posts_author_created_idx`
    /// alone; then the full rows of the `limit + 1` newest of them, so only what the page keeps is
    /// read and decoded (51 sources: 21 rows instead of 1,071).
    static func feedPage(_ db: Database, _ request: PostPageRequest, me: UUID, viewer: Viewer) throws -> PostPage {
        let sources = try [me] + String.fetchAll(
            db.cachedStatement(sql: """
                SELECT f.followee_id FROM follows f
                WHERE f.follower_id = ? AND f.deleted_at IS NULL
                """),
            arguments: [me.lowercased]).compactMap(UUID.init(parsing:))
        let page = request.page
        let keysSQL = """
            SELECT created_at, id FROM posts WHERE author_id = ? \(page.cursor == nil ? "" : "AND (created_at, id) < (?, ?)")
            ORDER BY created_at DESC, id DESC LIMIT ?
            """
        var keys: [TimeKeyset] = []
        for source in sources {
            var values: [(any DatabaseValueConvertible)?] = [source.lowercased]
            if let cursor = page.cursor { values += [cursor.createdAtMicroseconds, cursor.id.lowercased] }
            values.append(page.rowsToFetch)
            let rows = try Row.fetchCursor(db.cachedStatement(sql: keysSQL), arguments: StatementArguments(values))
            while let row = try rows.next() {
                guard let id = UUID(parsing: row[1] as String) else { throw StoreDataError.badId }
                keys.append(TimeKeyset(createdAtMicroseconds: row[0], id: id))
            }
        }
        let chosen = keys.sorted { $1 < $0 }.prefix(page.rowsToFetch).map { $0.id.lowercased }
        var posts: [Post] = []
        if !chosen.isEmpty {
            let sql = "SELECT \(PostColumns.select("p")) FROM posts p WHERE p.id IN (\(placeholders(chosen.count)))"
            posts = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [viewer.sqlId] + StatementArguments(chosen))
                .map { try PostColumns.decode($0) }
        }
        return PostPage.assemble(request: request, fetched: posts, totalCount: nil, sources: sources)
    }

    /// Up to `limit + 1` visible posts of `author` in the page's direction from its cursor.
    static func authorPosts(_ db: Database, author: UUID, page: PageRequest, viewer: Viewer) throws -> [Post] {
        let sql = authorPostsSQL(forward: page.direction == .forward, hasCursor: page.cursor != nil)
        var values: [(any DatabaseValueConvertible)?] = [viewer.sqlId, author.lowercased]
        if let cursor = page.cursor { values += [cursor.createdAtMicroseconds, cursor.id.lowercased] }
        values += [viewer.sqlId, page.rowsToFetch]
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(values)).map { try PostColumns.decode($0) }
    }

    /// One author's posts from a cursor, newest first (`forward`) or oldest first. Parameters:
    /// viewer (the like), author, [cursor time, cursor id], viewer (visibility), limit.
    static func authorPostsSQL(forward: Bool, hasCursor: Bool) -> String {
        let order = forward ? "DESC" : "ASC"
        let keyset = hasCursor ? "AND (p.created_at, p.id) \(forward ? "<" : ">") (?, ?)" : ""
        return """
            SELECT \(PostColumns.select("p")) FROM posts p JOIN profiles a ON a.id = p.author_id
            WHERE p.author_id = ? \(keyset) AND \(ProfileColumns.visible("a"))
            ORDER BY p.created_at \(order), p.id \(order) LIMIT ?
            """
    }

    public func comments(ids: [UUID], viewer: Viewer) async throws -> [UUID: Comment] {
        try await call(.commentsByID) {
            guard !ids.isEmpty else { return [:] }
            let keys = Array(Set(ids.map(\.lowercased)))
            return try read { db in
                var result: [UUID: Comment] = [:]
                for chunk in keys.chunked(Self.maxKeysPerStatement) {
                    let sql = """
                        SELECT \(PostColumns.selectComment) FROM comments c JOIN posts p ON p.id = c.post_id
                        JOIN profiles a ON a.id = p.author_id JOIN profiles w ON w.id = c.author_id
                        WHERE c.id IN (\(placeholders(chunk.count))) AND \(ProfileColumns.visible("a")) AND \(ProfileColumns.visible("w"))
                        """
                    let arguments = StatementArguments(chunk) + [viewer.sqlId, viewer.sqlId]
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
                        let comment = try PostColumns.decodeComment(row)
                        result[comment.id] = comment
                    }
                }
                return result
            }
        }
    }

    public func commentPages(_ requests: [CommentPageRequest], viewer: Viewer) async throws -> [CommentPage] {
        try await call(.commentPages) {
            try read { db in
                try requests.map { request in
                    let total = try Int.fetchOne(
                        db.cachedStatement(sql: """
                            SELECT p.comment_count FROM posts p JOIN profiles a ON a.id = p.author_id
                            WHERE p.id = ? AND \(ProfileColumns.visible("a"))
                            """),
                        arguments: [request.post.lowercased, viewer.sqlId])
                    guard let total else { return CommentPage.assemble(request: request, fetched: [], totalCount: 0) }
                    let forward = request.page.direction == .forward
                    let order = forward ? "ASC" : "DESC"
                    let keyset = request.page.cursor == nil ? "" : "AND (c.created_at, c.id) \(forward ? ">" : "<") (?, ?)"
                    // A private profile's comments reach only its owner (the comments_read policy).
                    let sql = """
                        SELECT \(PostColumns.selectComment) FROM comments c JOIN profiles w ON w.id = c.author_id
                        WHERE c.post_id = ? \(keyset) AND \(ProfileColumns.visible("w"))
                        ORDER BY c.created_at \(order), c.id \(order) LIMIT ?
                        """
                    var values: [(any DatabaseValueConvertible)?] = [request.post.lowercased]
                    if let cursor = request.page.cursor { values += [cursor.createdAtMicroseconds, cursor.id.lowercased] }
                    values += [viewer.sqlId, request.page.rowsToFetch]
                    let comments = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(values))
                        .map { try PostColumns.decodeComment($0) }
                    return CommentPage.assemble(request: request, fetched: comments, totalCount: total)
                }
            }
        }
    }

    public func likerPages(_ requests: [LikerPageRequest], viewer: Viewer) async throws -> [LikerPage] {
        try await call(.likerPages) {
            try read { db in
                try requests.map { request in
                    // The post's stored count, when the viewer sees its author (the post is visible).
                    let total = try Int.fetchOne(
                        db.cachedStatement(sql: """
                            SELECT p.like_count FROM posts p JOIN profiles a ON a.id = p.author_id
                            WHERE p.id = ? AND \(ProfileColumns.visible("a"))
                            """),
                        arguments: [request.post.lowercased, viewer.sqlId])
                    guard let total else { return LikerPage.assemble(request: request, fetched: [], totalCount: 0) }
                    guard request.limit > 0 else { return LikerPage.assemble(request: request, fetched: [], totalCount: total) }
                    // The edge rule's other end: a liker the viewer sees (whole), or not listed.
                    let keyset = request.after == nil ? "" : "AND (l.created_at, l.profile_id) < (?, ?)"
                    let sql = """
                        SELECT l.created_at, \(ProfileColumns.select("w")) FROM post_likes l JOIN profiles w ON w.id = l.profile_id
                        WHERE l.post_id = ? \(keyset) AND \(ProfileColumns.visible("w"))
                        ORDER BY l.created_at DESC, l.profile_id DESC LIMIT ?
                        """
                    var values: [(any DatabaseValueConvertible)?] = [request.post.lowercased]
                    if let after = request.after { values += [after.createdAtMicroseconds, after.id.lowercased] }
                    values += [viewer.sqlId, request.limit + 1]
                    let likers = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(values)).map { row in
                        LikerEdge(profile: try ProfileColumns.decode(row, at: 1), postId: request.post, likedAtMicroseconds: row[0])
                    }
                    return LikerPage.assemble(request: request, fetched: likers, totalCount: total)
                }
            }
        }
    }

    public func createPost(_ draft: PostDraft, viewer: Viewer) async throws -> Post {
        try await call(.createPost) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .createPosts) }
            let id = options.random.uuid()
            let now = UnixMicroseconds.from(options.clock.now())
            let urls = try PostColumns.imageURLsJSON(draft.imageURLs)
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO posts (id, author_id, content, image_urls, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id.lowercased, me.lowercased, draft.content, urls, now, now])
            }
            return Post(
                id: id, authorId: me, content: draft.content, imageURLs: draft.imageURLs, createdAtMicroseconds: now,
                updatedAt: UnixMicroseconds.date(now))
        }
    }

    public func updatePost(id: UUID, changes: PostChanges, viewer: Viewer) async throws -> Post {
        try await call(.updatePost) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .editPosts) }
            let now = UnixMicroseconds.from(options.clock.now())
            let urls = try changes.imageURLs.map(PostColumns.imageURLsJSON)
            return try await pool.write { db in
                try db.execute(
                    sql: """
                        UPDATE posts SET content = coalesce(?, content), image_urls = coalesce(?, image_urls), updated_at = ?
                        WHERE id = ? AND author_id = ?
                        """,
                    arguments: [changes.content, urls, now, id.lowercased, me.lowercased])
                guard db.changesCount > 0 else { throw DomainError.postNotFound }
                let sql = "SELECT \(PostColumns.select("p")) FROM posts p WHERE p.id = ?"
                guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [me.lowercased, id.lowercased]) else {
                    throw DomainError.postNotFound
                }
                return try PostColumns.decode(row)
            }
        }
    }

    public func deletePost(id: UUID, viewer: Viewer) async throws {
        try await call(.deletePost) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .deletePosts) }
            try await pool.write { db in
                try db.execute(sql: "DELETE FROM posts WHERE id = ? AND author_id = ?", arguments: [id.lowercased, me.lowercased])
                guard db.changesCount > 0 else { throw DomainError.postNotFound }
            }
        }
    }

    /// In one write transaction (SQLite has one writer): the post must be visible, then the
    /// like goes or comes as `action` says (`.like` inserts unless it is there, `.unlike`
    /// deletes if it is, `.toggle` does whichever applies); the trigger moves the count, read
    /// back before the commit.
    public func changeLike(postId: UUID, action: LikeAction, viewer: Viewer) async throws -> LikeOutcome {
        try await call(.toggleLike) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .likePosts) }
            let now = UnixMicroseconds.from(options.clock.now())
            return try await pool.write { db in
                guard try Self.isVisiblePost(db, postId, viewer: viewer) else { throw DomainError.postNotFound }
                let pair: StatementArguments = [postId.lowercased, me.lowercased]
                let liked: Bool
                var changed = true
                switch action {
                case .toggle:
                    try db.execute(sql: "DELETE FROM post_likes WHERE post_id = ? AND profile_id = ?", arguments: pair)
                    liked = db.changesCount == 0
                    if liked {
                        try db.execute(
                            sql: "INSERT INTO post_likes (post_id, profile_id, created_at) VALUES (?, ?, ?)",
                            arguments: [postId.lowercased, me.lowercased, now])
                    }
                case .like:
                    try db.execute(
                        sql: "INSERT INTO post_likes (post_id, profile_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                        arguments: [postId.lowercased, me.lowercased, now])
                    liked = true
                    changed = db.changesCount > 0
                case .unlike:
                    try db.execute(sql: "DELETE FROM post_likes WHERE post_id = ? AND profile_id = ?", arguments: pair)
                    liked = false
                    changed = db.changesCount > 0
                }
                let count = try Int.fetchOne(db, sql: "SELECT like_count FROM posts WHERE id = ?", arguments: [postId.lowercased]) ?? 0
                return LikeOutcome(liked: liked, likeCount: count, changed: changed, at: liked && changed ? now : nil)
            }
        }
    }

    public func addComment(postId: UUID, content: String, viewer: Viewer) async throws -> Comment {
        try await call(.addComment) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .comment) }
            let id = options.random.uuid()
            let now = UnixMicroseconds.from(options.clock.now())
            try await pool.write { db in
                guard try Self.isVisiblePost(db, postId, viewer: viewer) else { throw DomainError.postNotFound }
                try db.execute(
                    sql: "INSERT INTO comments (id, post_id, author_id, content, created_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id.lowercased, postId.lowercased, me.lowercased, content, now])
            }
            return Comment(id: id, postId: postId, authorId: me, content: content, createdAtMicroseconds: now)
        }
    }

    /// The `comments_delete` policy: one's own comment, or any comment on one's own post.
    public func deleteComment(id: UUID, viewer: Viewer) async throws {
        try await call(.deleteComment) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .deleteComments) }
            try await pool.write { db in
                try db.execute(
                    sql: """
                        DELETE FROM comments WHERE id = ?1
                          AND (author_id = ?2 OR (post_id IN (SELECT id FROM posts WHERE author_id = ?2)
                                                  AND author_id IN (SELECT id FROM profiles WHERE is_public = 1)))
                        """,
                    arguments: [id.lowercased, me.lowercased])
                guard db.changesCount > 0 else { throw DomainError.commentNotFound }
            }
        }
    }

    static func isVisiblePost(_ db: Database, _ id: UUID, viewer: Viewer) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM posts p JOIN profiles a ON a.id = p.author_id
                               WHERE p.id = ? AND \(ProfileColumns.visible("a")))
                """),
            arguments: [id.lowercased, viewer.sqlId]) ?? false
    }
}
