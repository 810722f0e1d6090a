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

    /// The columns, then whether the viewer sees the whole profile (``visible(_:)``, one `?`).
    static func selectWithAccess(_ table: String) -> String {
        select(table) + ", " + visible(table)
    }

    /// Decodes a ``selectWithAccess(_:)`` row: a profile the viewer may not fully see is its card.
    static func decodeWithAccess(_ row: Row) throws -> Profile {
        let profile = try decode(row)
        return (row[names.count] as Bool) ? profile : profile.card()
    }

    /// ``visible(_:)``, or the profile's card for a viewer who may see that
    /// (``SocialRules/seesCard``): two `?`, both the viewer.
    static func visibleOrCard(_ table: String) -> String {
        "(\(visible(table)) OR EXISTS (SELECT 1 FROM (SELECT ? AS viewer_id) c WHERE \(condition(SocialRules.seesCard, viewer: "c.viewer_id", table))))"
    }

    /// The `profiles_read` policy for the viewer bound to its one `?` (``Viewer/sqlId``):
    /// ``SocialRules/sees`` rendered over the profile in `table` (``ProfileAccess/full``). The
    /// viewer is bound once, in a derived table, so every call site keeps its single parameter.
    static func visible(_ table: String) -> String {
        "EXISTS (SELECT 1 FROM (SELECT ? AS viewer_id) v WHERE \(condition(SocialRules.sees, viewer: "v.viewer_id", table)))"
    }

    /// A condition of the domain's rule as SQL, for `viewer` (an SQL expression, NULL when
    /// anonymous) and the profile in `table`: each ``VisibilityFact`` is one column test or one
    /// index probe, and the rule's shape is ``SocialRules``' own. A NULL viewer makes every fact
    /// about it false, never NULL, and costs no probe (an anonymous viewer follows and blocks
    /// nobody).
    static func condition(_ rule: VisibilityCondition, viewer: String, _ table: String) -> String {
        rule.render { fact in
            switch fact {
            case .viewerIsSignedIn: "\(viewer) IS NOT NULL"
            case .viewerIsProfile: "\(viewer) IS \(table).id"
            case .profileIsPublic: "\(table).is_public = 1"
            case .viewerFollowsProfile:
                """
                \(viewer) IS NOT NULL AND EXISTS (SELECT 1 FROM follows vf
                  WHERE vf.follower_id = \(viewer) AND vf.followee_id = \(table).id AND vf.deleted_at IS NULL)
                """
            case .blockedEitherWay: "\(viewer) IS NOT NULL AND \(blocked(viewer, table))"
            }
        }
    }

    /// A block between `viewer` (an SQL expression) and the profile in `table`, either way: two
    /// probes of the `blocks` primary key.
    static func blocked(_ viewer: String, _ table: String) -> String {
        """
        EXISTS (SELECT 1 FROM blocks vb WHERE (vb.blocker_id = \(viewer) AND vb.blocked_id = \(table).id)
                                          OR (vb.blocker_id = \(table).id AND vb.blocked_id = \(viewer)))
        """
    }

    /// No block between `viewer` and the profile in `table` (``blocked(_:_:)``).
    static func notBlocked(_ viewer: String, _ table: String) -> String { "NOT " + blocked(viewer, table) }
}

/// Data in the file that this code did not write (reported as BACKEND_UNAVAILABLE).
enum StoreDataError: Error {
    case badId
}

extension Viewer {
    /// The viewer's id as the SQL parameter of ``ProfileColumns/visible(_:)`` (NULL if anonymous).
    var sqlId: String? { userId?.lowercased }
}
