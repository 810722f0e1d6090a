import Foundation
import SocialDomain

/// A post as PostgREST returns it (`select=` on `posts`, or `post_json()` inside the functions'
/// results, migration 20250301001300 onwards).
public struct PostRow: Codable, Sendable {
    public var id: String
    public var author_id: String
    public var content: String
    public var image_urls: [String]
    public var like_count: Int
    public var comment_count: Int
    public var created_at: String
    public var updated_at: String

    /// A row as the database writes it (for the Supabase fake, which answers with these rows).
    public init(
        id: String, author_id: String, content: String, image_urls: [String], like_count: Int, comment_count: Int,
        created_at: String, updated_at: String
    ) {
        self.id = id
        self.author_id = author_id
        self.content = content
        self.image_urls = image_urls
        self.like_count = like_count
        self.comment_count = comment_count
        self.created_at = created_at
        self.updated_at = updated_at
    }

    public static let columnNames = ["id", "author_id", "content", "image_urls", "like_count", "comment_count", "created_at", "updated_at"]

    /// - Throws: ``MalformedRow`` for an id or time this code cannot read.
    public func post(viewerHasLiked: Bool) throws -> Post {
        guard let id = UUID(parsing: id), let author = UUID(parsing: author_id),
              let created = SupabaseTimestamp.microseconds(created_at), let updated = SupabaseTimestamp.microseconds(updated_at)
        else { throw MalformedRow("post \(id)") }
        return Post(
            id: id, authorId: author, content: content, imageURLs: image_urls, likeCount: like_count,
            commentCount: comment_count, createdAtMicroseconds: created, updatedAt: UnixMicroseconds.date(updated),
            viewerHasLiked: viewerHasLiked)
    }
}

/// A comment as PostgREST returns it (`select=` on `comments`, or `comment_json()`).
public struct CommentRow: Codable, Sendable {
    public var id: String
    public var post_id: String
    public var author_id: String
    public var content: String
    public var created_at: String

    public static let columnNames = ["id", "post_id", "author_id", "content", "created_at"]

    /// A row as the database writes it (for the Supabase fake).
    public init(id: String, post_id: String, author_id: String, content: String, created_at: String) {
        self.id = id
        self.post_id = post_id
        self.author_id = author_id
        self.content = content
        self.created_at = created_at
    }

    /// - Throws: ``MalformedRow``.
    public func comment() throws -> Comment {
        guard let id = UUID(parsing: id), let post = UUID(parsing: post_id), let author = UUID(parsing: author_id),
              let created = SupabaseTimestamp.microseconds(created_at)
        else { throw MalformedRow("comment \(id)") }
        return Comment(id: id, postId: post, authorId: author, content: content, createdAtMicroseconds: created)
    }
}

/// The argument items of `post_pages` and `comment_pages`: the list's owner, then the keyset.
/// Decodable too, for the Supabase fake.
public struct TimelinePageArgument: Codable, Sendable {
    public var author: String?
    public var post: String?
    public var backward: Bool
    public var cursor_us: Int64?
    public var cursor_id: String?
    public var limit: Int

    public init(author: UUID? = nil, post: UUID? = nil, page: PageRequest) {
        self.author = author?.lowercased
        self.post = post?.lowercased
        backward = page.direction == .backward
        cursor_us = page.cursor?.createdAtMicroseconds
        cursor_id = page.cursor?.id.lowercased
        limit = page.limit
    }

    enum CodingKeys: String, CodingKey { case author, post, backward, cursor_us, cursor_id, limit }

    /// The owner key that is set, then explicit nulls for an absent cursor.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let author { try c.encode(author, forKey: .author) }
        if let post { try c.encode(post, forKey: .post) }
        try c.encode(backward, forKey: .backward)
        try c.encode(cursor_us, forKey: .cursor_us)
        try c.encode(cursor_id, forKey: .cursor_id)
        try c.encode(limit, forKey: .limit)
    }
}

/// One row of `post_pages`: the request it answers, the author's counter, and a post (null
/// when the page is empty). Encodable too, for the Supabase fake (an empty page's nulls explicit).
public struct PostPageRow: Codable, Sendable {
    public var request_index: Int
    public var total_count: Int
    public var post: PostRow?
    public var viewer_has_liked: Bool?

    public init(request_index: Int, total_count: Int, post: PostRow?, viewer_has_liked: Bool?) {
        self.request_index = request_index
        self.total_count = total_count
        self.post = post
        self.viewer_has_liked = viewer_has_liked
    }

    public enum CodingKeys: String, CodingKey { case request_index, total_count, post, viewer_has_liked }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(request_index, forKey: .request_index)
        try c.encode(total_count, forKey: .total_count)
        try c.encode(post, forKey: .post)
        try c.encode(viewer_has_liked, forKey: .viewer_has_liked)
    }

    /// The pages `rows` answer, one per request, in request order.
    /// - Throws: ``MalformedRow``.
    public static func pages(_ rows: [PostPageRow], answering requests: [PostPageRequest]) throws -> [PostPage] {
        var fetched = Array(repeating: [Post](), count: requests.count)
        var totals = Array(repeating: 0, count: requests.count)
        for row in rows {
            guard requests.indices.contains(row.request_index) else { throw MalformedRow("post_pages request_index \(row.request_index)") }
            totals[row.request_index] = row.total_count
            if let post = row.post { fetched[row.request_index].append(try post.post(viewerHasLiked: row.viewer_has_liked ?? false)) }
        }
        return requests.indices.map { PostPage.assemble(request: requests[$0], fetched: fetched[$0], totalCount: totals[$0]) }
    }
}

/// The arguments of `feed_page` and `feed_page_with_sources`, nulls explicit. Decodable too,
/// for the Supabase fake.
public struct FeedArguments: Codable, Sendable {
    public var after_us: Int64?
    public var after_id: String?
    public var page_size: Int

    public init(after_us: Int64?, after_id: String?, page_size: Int) {
        self.after_us = after_us
        self.after_id = after_id
        self.page_size = page_size
    }

    public enum CodingKeys: String, CodingKey { case after_us, after_id, page_size }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(after_us, forKey: .after_us)
        try c.encode(after_id, forKey: .after_id)
        try c.encode(page_size, forKey: .page_size)
    }
}

/// One row of `feed_page`.
public struct FeedRow: Codable, Sendable {
    public var post: PostRow
    public var viewer_has_liked: Bool

    public init(post: PostRow, viewer_has_liked: Bool) {
        self.post = post
        self.viewer_has_liked = viewer_has_liked
    }
}

/// The answer of `feed_page_with_sources`: `feed_page`'s rows and the caller's active follows.
public struct FeedWithSources: Codable, Sendable {
    public var posts: [FeedRow]
    public var sources: [String]

    public init(posts: [FeedRow], sources: [String]) {
        self.posts = posts
        self.sources = sources
    }

    /// The page, with the viewer among its sources.
    /// - Throws: ``MalformedRow``.
    public func page(_ request: PostPageRequest, viewer me: UUID) throws -> PostPage {
        let posts = try posts.map { try $0.post.post(viewerHasLiked: $0.viewer_has_liked) }
        let followed = try sources.map { text -> UUID in
            guard let id = UUID(parsing: text) else { throw MalformedRow("feed source \(text)") }
            return id
        }
        return PostPage.assemble(request: request, fetched: posts, totalCount: nil, sources: [me] + followed)
    }
}

/// One row of `comment_pages`. Encodable too, for the Supabase fake (an empty page's comment an
/// explicit null).
public struct CommentPageRow: Codable, Sendable {
    public var request_index: Int
    public var total_count: Int
    public var comment: CommentRow?

    public init(request_index: Int, total_count: Int, comment: CommentRow?) {
        self.request_index = request_index
        self.total_count = total_count
        self.comment = comment
    }

    public enum CodingKeys: String, CodingKey { case request_index, total_count, comment }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(request_index, forKey: .request_index)
        try c.encode(total_count, forKey: .total_count)
        try c.encode(comment, forKey: .comment)
    }

    /// - Throws: ``MalformedRow``.
    public static func pages(_ rows: [CommentPageRow], answering requests: [CommentPageRequest]) throws -> [CommentPage] {
        try pages(rows.map { (requestIndex: $0.request_index, totalCount: $0.total_count, comment: try $0.comment?.comment()) },
                  answering: requests)
    }

    /// The same from rows whose comments are decoded already (the PostgreSQL store reads them as
    /// binary columns).
    /// - Throws: ``MalformedRow`` for a row that answers no request.
    public static func pages(
        _ rows: [(requestIndex: Int, totalCount: Int, comment: Comment?)], answering requests: [CommentPageRequest]
    ) throws -> [CommentPage] {
        var fetched = Array(repeating: [Comment](), count: requests.count)
        var totals = Array(repeating: 0, count: requests.count)
        for row in rows {
            guard requests.indices.contains(row.requestIndex) else { throw MalformedRow("comment_pages request_index \(row.requestIndex)") }
            totals[row.requestIndex] = row.totalCount
            if let comment = row.comment { fetched[row.requestIndex].append(comment) }
        }
        return requests.indices.map { CommentPage.assemble(request: requests[$0], fetched: fetched[$0], totalCount: totals[$0]) }
    }
}

/// The answer of `toggle_like`.
public struct LikeOutcomeRow: Codable, Sendable {
    public var liked: Bool
    public var like_count: Int
    /// `set_like` says whether it changed anything; `toggle_like` always does (absent).
    public var changed: Bool?

    public init(liked: Bool, like_count: Int, changed: Bool? = nil) {
        self.liked = liked
        self.like_count = like_count
        self.changed = changed
    }

    public var outcome: LikeOutcome { LikeOutcome(liked: liked, likeCount: like_count, changed: changed ?? true) }
}

/// The named arguments of `set_like`. Decodable too, for the Supabase fake.
public struct SetLikeArguments: Codable, Sendable {
    public var target: String
    public var liked: Bool
    public init(target: String, liked: Bool) {
        self.target = target
        self.liked = liked
    }
}

/// The body of a post update: only the changed columns. Decodable too, for the Supabase fake.
public struct PostPatch: Codable, Sendable {
    public var content: String?
    public var image_urls: [String]?
    public init(_ changes: PostChanges) {
        content = changes.content
        image_urls = changes.imageURLs
    }
}

/// The body of a post insert. Decodable too, for the Supabase fake.
public struct NewPostRow: Codable, Sendable {
    public var author_id: String
    public var content: String
    public var image_urls: [String]
    public init(author: UUID, draft: PostDraft) {
        author_id = author.lowercased
        content = draft.content
        image_urls = draft.imageURLs
    }
}

/// The body of a comment insert. Decodable too, for the Supabase fake.
public struct NewCommentRow: Codable, Sendable {
    public var post_id: String
    public var author_id: String
    public var content: String
    public init(post: UUID, author: UUID, content: String) {
        post_id = post.lowercased
        author_id = author.lowercased
        self.content = content
    }
}

/// A story as PostgREST returns it (`select=` on `stories`, or `active_stories()`).
public struct StoryRow: Codable, Sendable {
    public var id: String
    public var author_id: String
    public var media_url: String
    public var media_path: String
    public var media_type: String
    public var created_at: String
    public var expires_at: String

    public static let columnNames = ["id", "author_id", "media_url", "media_path", "media_type", "created_at", "expires_at"]

    /// A row as the database writes it (for the Supabase fake, which answers with these rows).
    public init(
        id: String, author_id: String, media_url: String, media_path: String, media_type: String, created_at: String,
        expires_at: String
    ) {
        self.id = id
        self.author_id = author_id
        self.media_url = media_url
        self.media_path = media_path
        self.media_type = media_type
        self.created_at = created_at
        self.expires_at = expires_at
    }

    /// - Throws: ``MalformedRow``.
    public func story() throws -> Story {
        guard let id = UUID(parsing: id), let author = UUID(parsing: author_id), let path = MediaPath(parsing: media_path, kind: .story),
              let type = StoryMediaType(rawValue: media_type), let created = SupabaseTimestamp.microseconds(created_at),
              let expires = SupabaseTimestamp.microseconds(expires_at)
        else { throw MalformedRow("story \(id)") }
        return Story(
            id: id, authorId: author, mediaURL: media_url, mediaPath: path, mediaType: type, createdAtMicroseconds: created,
            expiresAtMicroseconds: expires)
    }
}

/// The arguments of `create_story(media_path, media_type, media_url)` (migration
/// 20250301002000; the author is the caller, the times are the database's). Decodable too, for
/// the Supabase fake, which reads the arguments the store sends.
public struct CreateStoryArguments: Codable, Sendable {
    public var media_path: String
    public var media_type: String
    public var media_url: String
    public init(mediaURL: String, path: MediaPath) {
        media_path = path.description
        media_type = path.format.mediaType.rawValue
        media_url = mediaURL
    }
}

/// A row of `GET /rest/v1/stories?select=expires_at`.
public struct StoryExpiryRow: Codable, Sendable {
    public var expires_at: String
    public init(expires_at: String) { self.expires_at = expires_at }
}
