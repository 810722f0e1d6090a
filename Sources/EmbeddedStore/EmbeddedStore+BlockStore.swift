import Foundation
import GRDB
import SocialDomain

/// Blocks (issue 40), as `blocks` and its definer functions hold them in PostgreSQL: the blocker
/// alone sees their rows; every read hides a blocked pair from each other
/// (``ProfileColumns/visible(_:)``).
extension EmbeddedStore: BlockStore {
    public func changeBlock(of profileId: UUID, block: Bool, viewer: Viewer) async throws -> BlockOutcome {
        try await call(.changeBlock) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .blockUsers) }
            guard me != profileId else { throw DomainError.cannotBlockSelf }
            let now = UnixMicroseconds.from(options.clock.now())
            let (mine, theirs) = (me.lowercased, profileId.lowercased)
            return try await pool.write { db in
                guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM profiles WHERE id = ?"), arguments: [theirs]) ?? false else {
                    throw DomainError.profileNotFound
                }
                if block {
                    try db.cachedStatement(sql: "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
                        .execute(arguments: [mine, theirs, now])
                } else {
                    try db.cachedStatement(sql: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?").execute(arguments: [mine, theirs])
                }
                let changed = db.changesCount > 0
                if block && changed {
                    // follows and requests both ways go; the counter triggers run with the update
                    try db.cachedStatement(sql: """
                        UPDATE follows SET deleted_at = ?1, updated_at = ?1
                        WHERE deleted_at IS NULL AND ((follower_id = ?2 AND followee_id = ?3) OR (follower_id = ?3 AND followee_id = ?2))
                        """).execute(arguments: [now, mine, theirs])
                    try db.cachedStatement(sql: """
                        DELETE FROM follow_requests
                        WHERE (requester_id = ?1 AND target_id = ?2) OR (requester_id = ?2 AND target_id = ?1)
                        """).execute(arguments: [mine, theirs])
                }
                guard let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT \(ProfileColumns.select("p")) FROM profiles p WHERE p.id = ?"), arguments: [mine])
                else { throw DomainError.profileNotFound }
                return BlockOutcome(blocked: block, changed: changed, viewer: try ProfileColumns.decode(row))
            }
        }
    }

    public func blockedProfilePage(_ request: TimePageRequest, viewer: Viewer) async throws -> BlockedProfilePage {
        try await call(.blockedProfilePage) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .blockUsers) }
            return try read { db in
                var sql = """
                    SELECT b.created_at, \(ProfileColumns.select("p")) FROM blocks b JOIN profiles p ON p.id = b.blocked_id
                    WHERE b.blocker_id = ?
                    """
                var arguments: StatementArguments = [me.lowercased]
                if let after = request.after {
                    sql += " AND (b.created_at, b.blocked_id) < (?, ?)"
                    arguments += [after.createdAtMicroseconds, after.id.lowercased]
                }
                sql += " ORDER BY b.created_at DESC, b.blocked_id DESC LIMIT ?"
                arguments += [request.rowsToFetch]
                let blocked = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
                    BlockedProfile(profile: try ProfileColumns.decode(row, at: 1).card(), ownerId: me, blockedAtMicroseconds: row[0])
                }
                let total = try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) FROM blocks WHERE blocker_id = ?"), arguments: [me.lowercased]) ?? 0
                let (page, more) = request.trim(blocked)
                return BlockedProfilePage(
                    blocked: page, hasNextPage: more,
                    hasPreviousPage: request.after != nil, totalCount: total)
            }
        }
    }

    /// Whether either profile blocks the other (ids lower-case).
    static func isBlockedEitherWay(_ db: Database, _ a: String, _ b: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1))
            """), arguments: [a, b]) ?? false
    }
}
