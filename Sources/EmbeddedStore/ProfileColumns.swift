import Foundation
import GRDB
import SocialDomain

/// The profile columns in one fixed order, and the decoding of a row into a ``Profile``.
enum ProfileColumns {
    static let names = [
        "id", "handle", "display_name", "bio", "photo_url", "home_gym", "climbing_since",
        "favorite_style", "is_public", "follower_count", "following_count", "created_at", "updated_at", "send_count", "post_count",
    ]

    /// `p.id, p.handle, ...`, optionally aliased `p.id AS p_id, ...`.
    static func select(_ table: String, aliasPrefix: String? = nil) -> String {
        names.map { name in aliasPrefix.map { "\(table).\(name) AS \($0)\(name)" } ?? "\(table).\(name)" }
            .joined(separator: ", ")
    }

    /// Decodes the profile whose columns start at `start`.
    static func decode(_ row: Row, at start: Int = 0) throws -> Profile {
        guard let id = UUID(parsing: row[start] as String) else { throw StoreDataError.badId }
        let since: String? = row[start + 6]
        return Profile(
            id: id,
            handle: row[start + 1],
            displayName: row[start + 2],
            bio: row[start + 3],
            avatarURL: row[start + 4],
            homeGym: row[start + 5],
            climbingSince: since.flatMap(CalendarDay.init),
            favoriteStyle: row[start + 7],
            isPublic: row[start + 8] as Bool,
            followerCount: row[start + 9],
            followingCount: row[start + 10],
            sendCount: row[start + 13],
            postCount: row[start + 14],
            createdAt: UnixMicroseconds.date(row[start + 11]),
            updatedAt: UnixMicroseconds.date(row[start + 12]))
    }

    /// `(is_public = 1 OR id = ?)`: the `profiles_read` policy, for `viewer`.
    static func visible(_ table: String) -> String {
        "(\(table).is_public = 1 OR \(table).id = ?)"
    }
}

/// Data in the file that this code did not write (reported as BACKEND_UNAVAILABLE).
enum StoreDataError: Error {
    case badId
}

extension Viewer {
    /// The viewer's id as the SQL parameter of ``ProfileColumns/visible(_:)`` (NULL if anonymous).
    var sqlId: String? { userId?.lowercased }
}
