import Foundation
import GRDB
import SocialDomain

/// Follows: pages for many lists in one statement, follow states for many pairs in one
/// statement, and atomic follow/unfollow/toggle with counters in the same transaction.
extension EmbeddedStore: FollowStore {
    public func followPages(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] {
        try await call(.followPages) {
            guard !requests.isEmpty else { return [] }
            return try read { db in
                try requests.chunked(FollowPagesQuery.maxRequestsPerStatement).flatMap {
                    try FollowPagesQuery.fetch(db, $0, viewer: viewer)
                }
            }
        }
    }

    /// Pairs grouped by one side, so that each statement is an equality on the pair index's first
    /// column (or on the followee side) plus an `IN` list: the viewer's follow states for a query
    /// level (every pair has the viewer on one side) are two statements of index probes. A row-value
    /// `IN (VALUES ...)` of the same pairs made SQLite scan `follows` once per statement.
    ///
    /// The edge rule (``SocialRules/showsEdge(_:_:)``, as `active_follows` in PostgreSQL): a follow
    /// is listed only when the viewer sees both of its profiles, so a private profile that follows
    /// a viewer who sees only its card does not "follow the viewer".
    public func activeFollows(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        try await call(.activeFollows) {
            guard !pairs.isEmpty else { return [] }
            let unique = Array(Set(pairs))
            // Followers asked about more than once go by follower; the rest by followee.
            let byFollower = Dictionary(grouping: unique, by: \.follower).filter { $0.value.count > 1 }
            let rest = unique.filter { byFollower[$0.follower] == nil }
            let byFollowee = Dictionary(grouping: rest, by: \.followee)
            return try read { db in
                var active = Set<FollowPair>()
                for (follower, group) in byFollower {
                    for chunk in group.map(\.followee).chunked(Self.maxKeysPerStatement) {
                        let sql = "SELECT f.followee_id FROM follows f \(Self.edgeJoin) WHERE f.follower_id = ? AND f.deleted_at IS NULL "
                            + "AND f.followee_id IN (\(placeholders(chunk.count))) AND \(Self.edgeShown)"
                        let arguments = [follower.lowercased] + StatementArguments(chunk.map(\.lowercased)) + [viewer.sqlId, viewer.sqlId]
                        for text in try String.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
                            if let followee = UUID(parsing: text) { active.insert(FollowPair(follower: follower, followee: followee)) }
                        }
                    }
                }
                for (followee, group) in byFollowee {
                    for chunk in group.map(\.follower).chunked(Self.maxKeysPerStatement) {
                        let sql = "SELECT f.follower_id FROM follows f \(Self.edgeJoin) WHERE f.followee_id = ? AND f.deleted_at IS NULL "
                            + "AND f.follower_id IN (\(placeholders(chunk.count))) AND \(Self.edgeShown)"
                        let arguments = [followee.lowercased] + StatementArguments(chunk.map(\.lowercased)) + [viewer.sqlId, viewer.sqlId]
                        for text in try String.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
                            if let follower = UUID(parsing: text) { active.insert(FollowPair(follower: follower, followee: followee)) }
                        }
                    }
                }
                return active
            }
        }
    }

    /// The follow `f`'s two profiles, `a` (follower) and `b` (followee).
    static let edgeJoin = "JOIN profiles a ON a.id = f.follower_id JOIN profiles b ON b.id = f.followee_id"
    /// ``SocialRules/showsEdge(_:_:)`` over ``edgeJoin``: two `?`, both the viewer.
    static let edgeShown = "\(ProfileColumns.visible("a")) AND \(ProfileColumns.visible("b"))"

    /// Emulates `follow_changes` (migration 20250301000800): the viewer's own rows, undone ones too,
    /// by `follows_follower_sync_idx`.
    public func followChanges(_ request: FollowSyncRequest, viewer: Viewer) async throws -> FollowSyncPage {
        try await call(.followChanges) {
            guard let me = viewer.userId else { return FollowSyncPage(records: [], hasNextPage: false) }
            return try read { db in
                var sql = """
                    SELECT id, follower_id, followee_id, created_at, updated_at, deleted_at FROM follows
                    WHERE follower_id = ? AND updated_at > ?
                    """
                var arguments: StatementArguments = [me.lowercased, request.sinceMicroseconds]
                if let after = request.after {
                    sql += " AND (updated_at, id) > (?, ?)"
                    arguments += [after.updatedAtMicroseconds, after.followId.lowercased]
                }
                sql += " ORDER BY updated_at, id LIMIT ?"
                arguments += [request.rowsToFetch]
                let records = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).compactMap { row -> FollowRecord? in
                    guard let id = UUID(parsing: row[0] as String), let follower = UUID(parsing: row[1] as String),
                          let followee = UUID(parsing: row[2] as String) else { return nil }
                    return FollowRecord(
                        id: id, followerId: follower, followeeId: followee, createdAtMicroseconds: row[3],
                        updatedAtMicroseconds: row[4], deletedAtMicroseconds: row[5])
                }
                return FollowSyncPage.assemble(request: request, fetched: records)
            }
        }
    }

    /// Emulates the SECURITY DEFINER functions `toggle_follow`/`follow_profile`/`unfollow_profile`
    /// acting for the viewer (the follower is always the viewer; clients cannot write `follows`
    /// directly): one upsert on `follows_pair_key`, so a re-follow restores
    /// the soft-deleted row (keeping its original `created_at`) and concurrent toggles of a pair
    /// are serialised by SQLite's write lock. The counter triggers run in the same transaction.
    public func changeFollow(_ change: FollowChange, viewer: Viewer) async throws -> FollowOutcome {
        try await call(.changeFollow) {
            let pair = change.pair
            guard viewer.userId == pair.follower else { throw DomainError.notAuthorized }
            let now = UnixMicroseconds.from(options.clock.now())
            let newId = options.random.uuid().lowercased
            let follower = pair.follower.lowercased, followee = pair.followee.lowercased
            return try await pool.write { db in
                // Removing one's own follow always works, even of a profile that has since turned
                // private (else the follow, and the follower's count, would stay for good). Anything
                // else needs the profile visible: a private profile is "not found" to strangers.
                let following = try Bool.fetchOne(db.cachedStatement(sql: """
                    SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ? AND deleted_at IS NULL
                    """), arguments: [follower, followee]) ?? false
                if !(following && change.action != .follow) {
                    let visible = try Bool.fetchOne(
                        db.cachedStatement(sql: "SELECT \(ProfileColumns.visible("p")) FROM profiles p WHERE p.id = ?"),
                        arguments: [viewer.sqlId, followee])
                    let exists = try Bool.fetchOne(
                        db.cachedStatement(sql: "SELECT 1 FROM profiles WHERE id = ?"), arguments: [follower]) ?? false
                    guard let visible, exists, try !Self.isBlockedEitherWay(db, follower, followee) else {
                        throw DomainError.profileNotFound
                    }
                    if !visible {
                        // A private profile the viewer does not follow: the call is about a request.
                        let request = try Self.changeRequest(db, action: change.action, follower: follower, followee: followee, at: now)
                        let profiles = try Self.outcomeProfiles(db, follower: follower, followee: followee, viewer: viewer)
                        return FollowOutcome(
                            isFollowing: false, follower: profiles.first { $0.id == pair.follower },
                            followee: profiles.first { $0.id == pair.followee }, changed: request.changed,
                            requestStatus: request.status)
                    }
                }
                switch change.action {
                case .toggle:
                    try db.cachedStatement(sql: """
                        INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (follower_id, followee_id) DO UPDATE
                          SET deleted_at = CASE WHEN deleted_at IS NULL THEN excluded.created_at ELSE NULL END,
                              updated_at = excluded.updated_at
                        """).execute(arguments: [newId, follower, followee, now, now])
                case .follow:
                    try db.cachedStatement(sql: """
                        INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (follower_id, followee_id) DO UPDATE
                          SET deleted_at = NULL, updated_at = excluded.updated_at
                          WHERE deleted_at IS NOT NULL
                        """).execute(arguments: [newId, follower, followee, now, now])
                case .unfollow:
                    try db.cachedStatement(sql: """
                        UPDATE follows SET deleted_at = ?, updated_at = ?
                        WHERE follower_id = ? AND followee_id = ? AND deleted_at IS NULL
                        """).execute(arguments: [now, now, follower, followee])
                }
                // Read back in the same transaction: the new state, whatever the action found.
                let isFollowing = try Int.fetchOne(db.cachedStatement(sql: """
                    SELECT count(*) FROM follows WHERE follower_id = ? AND followee_id = ? AND deleted_at IS NULL
                    """), arguments: [follower, followee]) == 1
                let profiles = try Self.outcomeProfiles(db, follower: follower, followee: followee, viewer: viewer)
                return FollowOutcome(
                    isFollowing: isFollowing,
                    follower: profiles.first { $0.id == pair.follower },
                    followee: profiles.first { $0.id == pair.followee }, changed: isFollowing != following,
                    at: isFollowing && !following ? now : nil)
            }
        }
    }

    /// Both profiles of a follow outcome as the viewer now sees them (a private one not followed
    /// is its card).
    static func outcomeProfiles(_ db: Database, follower: String, followee: String, viewer: Viewer) throws -> [Profile] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(ProfileColumns.selectWithAccess("p")) FROM profiles p WHERE p.id IN (?, ?)"),
            arguments: [viewer.sqlId, follower, followee]
        ).map(ProfileColumns.decodeWithAccess)
    }

    /// Profiles whose stored counters differ from their active follow rows: empty unless
    /// something bypassed the triggers. For tests and an admin repair check.
    public func profilesWithDriftingCounters() async throws -> [UUID] {
        try read { db in
            try String.fetchAll(db, sql: """
                SELECT p.id FROM profiles p
                WHERE p.follower_count <> (SELECT count(*) FROM follows f WHERE f.followee_id = p.id AND f.deleted_at IS NULL)
                   OR p.following_count <> (SELECT count(*) FROM follows f WHERE f.follower_id = p.id AND f.deleted_at IS NULL)
                """).compactMap(UUID.init(parsing:))
        }
    }
}
