import Foundation
import GRDB
import SocialDomain

/// The graph unfiltered, for the gateway's memory (``SocialDomain/GraphSnapshotStore``): the same
/// tables the viewer-shaped reads use, without their visibility rule, which the gateway applies.
extension EmbeddedStore: GraphSnapshotStore {
    public func snapshotProfiles(ids: [UUID]) async throws -> [UUID: Profile] {
        try await call(.snapshotProfiles) {
            guard !ids.isEmpty else { return [:] }
            return try read { db in
                var result: [UUID: Profile] = [:]
                for chunk in ids.map(\.lowercased).chunked(Self.maxKeysPerStatement) {
                    let sql = "SELECT \(ProfileColumns.select("p")) FROM profiles p WHERE p.id IN (\(placeholders(chunk.count)))"
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(chunk)) {
                        let profile = try ProfileColumns.decode(row)
                        result[profile.id] = profile
                    }
                }
                return result
            }
        }
    }

    public func snapshotProfiles(handles: [String]) async throws -> [String: Profile] {
        try await call(.snapshotProfiles) {
            guard !handles.isEmpty else { return [:] }
            return try read { db in
                var result: [String: Profile] = [:]
                for chunk in handles.map({ $0.lowercased() }).chunked(Self.maxKeysPerStatement) {
                    let sql = "SELECT \(ProfileColumns.select("p")) FROM profiles p WHERE lower(p.handle) IN (\(placeholders(chunk.count)))"
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(chunk)) {
                        let profile = try ProfileColumns.decode(row)
                        result[profile.handle.lowercased()] = profile
                    }
                }
                return result
            }
        }
    }

    /// One statement per list, all in one read: each walks its page index (`follows_*_page_idx`)
    /// for `limit + 1` rows, the extra one telling whether the list goes on.
    public func followListSnapshots(_ lists: [FollowList], limit: Int) async throws -> [FollowList: FollowListSnapshot] {
        try await call(.followListSnapshots) {
            guard !lists.isEmpty else { return [:] }
            return try read { db in
                var result: [FollowList: FollowListSnapshot] = [:]
                for list in Set(lists) {
                    let (owner, other) = list.kind == .followers ? ("followee_id", "follower_id") : ("follower_id", "followee_id")
                    let sql = """
                        SELECT f.id, f.follower_id, f.followee_id, f.created_at, \(ProfileColumns.select("p"))
                        FROM follows f
                        JOIN profiles p ON p.id = f.\(other)
                        WHERE f.\(owner) = ? AND f.deleted_at IS NULL
                        ORDER BY f.created_at DESC, f.id DESC LIMIT ?
                        """
                    var follows: [Follow] = []
                    var profiles: [UUID: Profile] = [:]
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [list.owner.lowercased, limit + 1]) {
                        guard let id = UUID(parsing: row[0] as String), let follower = UUID(parsing: row[1] as String),
                              let followee = UUID(parsing: row[2] as String)
                        else { throw StoreDataError.badId }
                        follows.append(Follow(id: id, followerId: follower, followeeId: followee, createdAtMicroseconds: row[3]))
                        let profile = try ProfileColumns.decode(row, at: 4)
                        profiles[profile.id] = profile
                    }
                    let complete = follows.count <= limit
                    if !complete { follows.removeLast() }
                    result[list] = FollowListSnapshot(list: list, follows: follows, profiles: profiles, isComplete: complete)
                }
                return result
            }
        }
    }

    public func viewerFacts(_ viewer: UUID, limit: Int) async throws -> ViewerFacts? {
        try await call(.viewerFacts) {
            let id = viewer.lowercased
            return try read { db -> ViewerFacts? in
                func ids(_ sql: String, arguments: StatementArguments) throws -> Set<UUID>? {
                    var result = Set<UUID>()
                    let rows = try String.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
                    while let text = try rows.next() {
                        guard let uuid = UUID(parsing: text) else { throw StoreDataError.badId }
                        result.insert(uuid)
                        if result.count > limit { return nil }
                    }
                    return result
                }
                guard let follows = try ids(
                    "SELECT followee_id FROM follows WHERE follower_id = ? AND deleted_at IS NULL LIMIT ?", arguments: [id, limit + 1]),
                    let followers = try ids(
                        "SELECT follower_id FROM follows WHERE followee_id = ? AND deleted_at IS NULL LIMIT ?", arguments: [id, limit + 1]),
                    let blocks = try ids(
                        "SELECT blocked_id FROM blocks WHERE blocker_id = ?1 UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?1 LIMIT ?2",
                        arguments: [id, limit + 1]),
                    let pending = try ids(
                        "SELECT target_id FROM follow_requests WHERE requester_id = ? AND status = 'pending' LIMIT ?",
                        arguments: [id, limit + 1])
                else { return nil }
                return ViewerFacts(viewer: viewer, follows: follows, followers: followers, blocks: blocks, pendingRequests: pending)
            }
        }
    }
}
