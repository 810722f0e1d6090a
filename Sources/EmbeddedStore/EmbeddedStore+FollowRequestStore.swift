import Foundation
import GRDB
import SocialDomain

/// Follow requests (issue 40), as the `follow_requests` table and its definer functions hold
/// them in PostgreSQL: the requester and the owner see their own rows; only the owner answers.
extension EmbeddedStore: FollowRequestStore {
    public func pendingFollowRequests(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        try await call(.pendingFollowRequests) {
            guard let me = viewer.userId else { return [] }
            // Only the viewer's own rows, as the policy shows them.
            let mine = Array(Set(pairs.filter { $0.follower == me || $0.followee == me }))
            guard !mine.isEmpty else { return [] }
            return try read { db in
                var pending = Set<FollowPair>()
                for chunk in mine.chunked(Self.maxKeysPerStatement / 2) {
                    let sql = "SELECT requester_id, target_id FROM follow_requests WHERE status = 'pending' AND ("
                        + Array(repeating: "(requester_id = ? AND target_id = ?)", count: chunk.count).joined(separator: " OR ") + ")"
                    let arguments = StatementArguments(chunk.flatMap { [$0.follower.lowercased, $0.followee.lowercased] })
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
                        if let requester = UUID(parsing: row[0] as String), let target = UUID(parsing: row[1] as String) {
                            pending.insert(FollowPair(follower: requester, followee: target))
                        }
                    }
                }
                return pending
            }
        }
    }

    public func followRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> FollowRequestPage {
        try await call(.followRequestPage) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
            return try read { db in
                var sql = """
                    SELECT r.created_at, \(ProfileColumns.selectWithAccess("p")) FROM follow_requests r
                    JOIN profiles p ON p.id = r.requester_id
                    WHERE r.target_id = ? AND r.status = 'pending'
                    """
                var arguments: StatementArguments = [viewer.sqlId, me.lowercased]
                if let after = request.after {
                    sql += " AND (r.created_at, r.requester_id) < (?, ?)"
                    arguments += [after.createdAtMicroseconds, after.id.lowercased]
                }
                sql += " ORDER BY r.created_at DESC, r.requester_id DESC LIMIT ?"
                arguments += [request.rowsToFetch]
                let requests = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
                    let profile = try ProfileColumns.decode(row, at: 1)
                    let requester = (row[1 + ProfileColumns.names.count] as Bool) ? profile : profile.card()
                    return FollowRequest(requester: requester, targetId: me, createdAtMicroseconds: row[0])
                }
                let total = try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) FROM follow_requests WHERE target_id = ? AND status = 'pending'"),
                    arguments: [me.lowercased]) ?? 0
                let (page, more) = request.trim(requests)
                return FollowRequestPage(
                    requests: page, hasNextPage: more,
                    hasPreviousPage: request.after != nil, totalCount: total)
            }
        }
    }

    public func sentFollowRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> SentFollowRequestPage {
        try await call(.sentFollowRequestPage) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
            return try read { db in
                var sql = """
                    SELECT r.created_at, \(ProfileColumns.selectWithAccess("p")) FROM follow_requests r
                    JOIN profiles p ON p.id = r.target_id
                    WHERE r.requester_id = ? AND r.status = 'pending'
                    """
                var arguments: StatementArguments = [viewer.sqlId, me.lowercased]
                if let after = request.after {
                    sql += " AND (r.created_at, r.target_id) < (?, ?)"
                    arguments += [after.createdAtMicroseconds, after.id.lowercased]
                }
                sql += " ORDER BY r.created_at DESC, r.target_id DESC LIMIT ?"
                arguments += [request.limit + 1]
                let requests = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
                    // A pending request is to a private profile the viewer does not follow: a card
                    // (the access column decides, as for every profile read).
                    let profile = try ProfileColumns.decode(row, at: 1)
                    let target = (row[1 + ProfileColumns.names.count] as Bool) ? profile : profile.card()
                    return SentFollowRequest(target: target, requesterId: me, createdAtMicroseconds: row[0])
                }
                let total = try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) FROM follow_requests WHERE requester_id = ? AND status = 'pending'"),
                    arguments: [me.lowercased]) ?? 0
                return SentFollowRequestPage(
                    requests: Array(requests.prefix(request.limit)), hasNextPage: requests.count > request.limit,
                    hasPreviousPage: request.after != nil, totalCount: total)
            }
        }
    }

    public func answerFollowRequest(from requester: UUID, approve: Bool, viewer: Viewer) async throws -> FollowRequestAnswer {
        try await call(.answerFollowRequest) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
            let now = UnixMicroseconds.from(options.clock.now())
            let followId = options.random.uuid().lowercased
            return try await pool.write { db in
                let pending = try Bool.fetchOne(db.cachedStatement(sql: """
                    SELECT 1 FROM follow_requests WHERE requester_id = ? AND target_id = ? AND status = 'pending'
                    """), arguments: [requester.lowercased, me.lowercased]) ?? false
                guard pending else { throw DomainError.followRequestNotFound }
                if approve {
                    try Self.approve(db, requester: requester.lowercased, target: me.lowercased, followId: followId, at: now)
                } else {
                    try db.cachedStatement(sql: """
                        UPDATE follow_requests SET status = 'declined', decided_at = ? WHERE requester_id = ? AND target_id = ?
                        """).execute(arguments: [now, requester.lowercased, me.lowercased])
                }
                let rows = try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT \(ProfileColumns.selectWithAccess("p")) FROM profiles p WHERE p.id IN (?, ?)"),
                    arguments: [viewer.sqlId, requester.lowercased, me.lowercased])
                let profiles = try rows.map(ProfileColumns.decodeWithAccess)
                guard let owner = profiles.first(where: { $0.id == me }),
                      let asker = profiles.first(where: { $0.id == requester }) else { throw DomainError.followRequestNotFound }
                return FollowRequestAnswer(approved: approve, requester: asker, owner: owner, at: approve ? now : nil)
            }
        }
    }

    /// The request becomes a follow (restoring an undone one), in the caller's transaction; the
    /// counter triggers run with it.
    static func approve(_ db: Database, requester: String, target: String, followId: String, at now: Int64) throws {
        try db.cachedStatement(sql: """
            INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (follower_id, followee_id) DO UPDATE
              SET deleted_at = NULL, updated_at = excluded.updated_at
              WHERE deleted_at IS NOT NULL
            """).execute(arguments: [followId, requester, target, now, now])
        try db.cachedStatement(sql: "DELETE FROM follow_requests WHERE requester_id = ? AND target_id = ?")
            .execute(arguments: [requester, target])
    }

    /// Turning public approves every pending request (the profile no longer asks who may follow).
    /// - Returns: how many were approved.
    static func approveAllPending(_ db: Database, target: String, at now: Int64, newId: () -> String) throws -> Int {
        let requesters = try String.fetchAll(
            db.cachedStatement(sql: "SELECT requester_id FROM follow_requests WHERE target_id = ? AND status = 'pending'"),
            arguments: [target])
        for requester in requesters {
            try approve(db, requester: requester, target: target, followId: newId(), at: now)
        }
        return requesters.count
    }

    /// The request side of ``changeFollow(_:viewer:)``: the viewer does not follow `followee`, a
    /// private profile. Returns the request's status after the call and whether it changed.
    static func changeRequest(
        _ db: Database, action: FollowAction, follower: String, followee: String, at now: Int64
    ) throws -> (status: FollowRequestStatus, changed: Bool) {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT status, decided_at FROM follow_requests WHERE requester_id = ? AND target_id = ?
            """), arguments: [follower, followee])
        let isPending = row.map { ($0[0] as String) == "pending" } ?? false
        let ask = action == .follow || (action == .toggle && !isPending)
        if !ask {
            guard isPending else { return (.none, false) }
            try db.cachedStatement(sql: "DELETE FROM follow_requests WHERE requester_id = ? AND target_id = ?")
                .execute(arguments: [follower, followee])
            return (.none, true)
        }
        if isPending { return (.pending, false) }
        if let row, let declinedAt = row[1] as Int64?,
           let wait = FollowRequestRules.waitAfterDecline(declinedAt: declinedAt, now: now) {
            throw DomainError.askAgainLater(retryAfterSeconds: wait)
        }
        try db.cachedStatement(sql: """
            INSERT INTO follow_requests (requester_id, target_id, status, created_at) VALUES (?, ?, 'pending', ?)
            ON CONFLICT (requester_id, target_id) DO UPDATE SET status = 'pending', created_at = excluded.created_at, decided_at = NULL
            """).execute(arguments: [follower, followee, now])
        return (.pending, true)
    }
}
