import Foundation
import GRDB
import SocialDomain

/// A viewer's relation to one profile in one statement, by the same visibility SQL as every
/// profile read (``ProfileColumns/visible(_:)``, ``ProfileColumns/visibleOrCard(_:)``), its
/// follows shown by the edge rule as ``activeFollows(among:viewer:)`` shows them.
extension EmbeddedStore: ViewerRelationStore {
    public func viewerRelation(to key: ProfileKey, viewer: Viewer) async throws -> ViewerRelation? {
        try await call(.viewerRelation) {
            guard let me = viewer.sqlId else { return nil }
            let condition: String, value: String
            switch key {
            case .id(let id): (condition, value) = ("p.id = ?", id.lowercased)
            case .handle(let handle): (condition, value) = ("lower(p.handle) = ?", handle.lowercased())
            }
            let sql = """
                SELECT p.id, \(ProfileColumns.visible("p")),
                  EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ? AND f.followee_id = p.id AND f.deleted_at IS NULL),
                  EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = p.id AND f.followee_id = ? AND f.deleted_at IS NULL),
                  EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?) OR EXISTS (SELECT 1 FROM blocks b WHERE b.blocked_id = ?),
                  COALESCE((SELECT v.is_public = 0 FROM profiles v WHERE v.id = ?), 1),
                  EXISTS (SELECT 1 FROM follows f JOIN profiles x ON x.id = f.followee_id
                          WHERE f.follower_id = ? AND f.deleted_at IS NULL AND x.is_public = 0 AND x.id <> p.id
                            AND (EXISTS (SELECT 1 FROM follows a WHERE a.follower_id = x.id AND a.followee_id = p.id AND a.deleted_at IS NULL)
                                 OR EXISTS (SELECT 1 FROM follows b WHERE b.follower_id = p.id AND b.followee_id = x.id AND b.deleted_at IS NULL)))
                FROM profiles p WHERE \(condition) AND \(ProfileColumns.visibleOrCard("p"))
                """
            let arguments: StatementArguments = [me, me, me, me, me, me, me, value, me, me]
            return try read { db -> ViewerRelation? in
                guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) else { return nil }
                guard let id = UUID(parsing: row[0] as String) else { throw StoreDataError.badId }
                let access: ProfileAccess = (row[1] as Bool) ? .full : .card
                // The follows between them as the edge rule shows them (what activeFollows answers).
                return ViewerRelation(
                    profileId: id, access: access,
                    viewerFollows: SocialRules.viewerIsFollowing(viewerFollowsProfile: row[2], access: access),
                    followsViewer: SocialRules.followsViewer(profileFollowsViewer: row[3], access: access),
                    viewerHasBlocks: row[4], viewerIsPrivate: row[5],
                    // An edge in the profile's lists shows only when the viewer sees both ends.
                    viewerFollowsPrivateListed: SocialRules.showsLists(of: access) && (row[6] as Bool))
            }
        }
    }
}
