import Foundation
import GRDB
import SocialDomain

/// The post and comment columns in one fixed order, and their decoding.
enum PostColumns {
    /// `p.id, p.author_id, ...` then whether `?` (the viewer) likes it: one parameter.
    static func select(_ table: String) -> String {
        "\(table).id, \(table).author_id, \(table).content, \(table).image_urls, \(table).like_count, \(table).comment_count, "
            + "\(table).created_at, \(table).updated_at, "
            + "EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = \(table).id AND l.profile_id = ?)"
    }

    static func decode(_ row: Row, at start: Int = 0) throws -> Post {
        guard let id = UUID(parsing: row[start] as String), let author = UUID(parsing: row[start + 1] as String) else {
            throw StoreDataError.badId
        }
        let text: String = row[start + 3]
        let urls = text == "[]" ? [] : (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
        return Post(
            id: id, authorId: author, content: row[start + 2], imageURLs: urls, likeCount: row[start + 4],
            commentCount: row[start + 5], createdAtMicroseconds: row[start + 6],
            updatedAt: UnixMicroseconds.date(row[start + 7]), viewerHasLiked: row[start + 8])
    }

    static func imageURLsJSON(_ urls: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(urls), as: UTF8.self)
    }

    static let selectComment = "c.id, c.post_id, c.author_id, c.content, c.created_at"

    static func decodeComment(_ row: Row, at start: Int = 0) throws -> Comment {
        guard let id = UUID(parsing: row[start] as String), let post = UUID(parsing: row[start + 1] as String),
              let author = UUID(parsing: row[start + 2] as String) else { throw StoreDataError.badId }
        return Comment(id: id, postId: post, authorId: author, content: row[start + 3], createdAtMicroseconds: row[start + 4])
    }
}
