import Foundation
import GRDB
import SocialDomain

/// The SQL that reads one page for each of many follow lists: per list, one walk of its page
/// index cut at `limit + 1`, in one read transaction for the whole wave.
///
/// Each list is a cached statement (one of eight: followers or following, newest or oldest
/// first, with or without a keyset cursor) that walks `follows_followee_page_idx` or
/// `follows_follower_page_idx` from the cursor, skips follows whose other profile the viewer may
/// not see, and stops after `limit + 1` rows; the owner's stored counter is its `totalCount`.
///
/// Why not one statement for the wave (as before, issue #17): a `VALUES` table of requests
/// joined to every candidate follow and numbered with `ROW_NUMBER()` ranked all 50 follows of
/// each of 50 lists to keep 11 of each; SQLite cannot stop a window early. The walks read what
/// they keep: uncached follower graphs (release, cache off, 4 connections) went from 51 to 96
/// requests/s.
enum FollowPagesQuery {
    /// Requests read per call (the wave is chunked by the caller).
    static let maxRequestsPerStatement = 200

    /// The statement for one list of `kind`, read newest first (`forward`) or oldest first,
    /// from a cursor or from the start. Parameters: viewer twice (the follow state of each row's
    /// profile: two probes of the pair index), owner, [cursor time, cursor id], viewer, limit.
    static func sql(kind: FollowList.Kind, forward: Bool, hasCursor: Bool) -> String {
        statements[(kind == .followers ? 4 : 0) + (forward ? 2 : 0) + (hasCursor ? 1 : 0)]
    }

    /// The eight statements, written once: a graph asks for 50 lists, and building each text
    /// (then hashing it to find the cached statement) showed in its profile.
    private static let statements: [String] = [FollowList.Kind.following, .followers].flatMap { kind in
        [false, true].flatMap { forward in [false, true].map { hasCursor in text(kind: kind, forward: forward, hasCursor: hasCursor) } }
    }

    private static func text(kind: FollowList.Kind, forward: Bool, hasCursor: Bool) -> String {
        let (ownerColumn, otherColumn) = kind == .followers ? ("followee_id", "follower_id") : ("follower_id", "followee_id")
        let order = forward ? "DESC" : "ASC"
        let keyset = hasCursor ? "AND (f.created_at, f.id) \(forward ? "<" : ">") (?, ?)" : ""
        return """
            SELECT f.id, f.follower_id, f.followee_id, f.created_at,
              EXISTS (SELECT 1 FROM follows v WHERE v.follower_id = ? AND v.followee_id = p.id AND v.deleted_at IS NULL),
              EXISTS (SELECT 1 FROM follows v WHERE v.follower_id = p.id AND v.followee_id = ? AND v.deleted_at IS NULL),
              \(ProfileColumns.select("p"))
            FROM follows f JOIN profiles p ON p.id = f.\(otherColumn)
            WHERE f.\(ownerColumn) = ? AND f.deleted_at IS NULL \(keyset) AND \(ProfileColumns.visible("p"))
            ORDER BY f.created_at \(order), f.id \(order)
            LIMIT ?
            """
    }

    /// The owners' stored counters, one statement for the wave.
    static func counters(_ db: Database, owners: Set<String>) throws -> [String: (followers: Int, following: Int)] {
        guard !owners.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: owners.count).joined(separator: ", ")
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, follower_count, following_count FROM profiles WHERE id IN (\(marks))"),
            arguments: StatementArguments(Array(owners)))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, (followers: $0[1] as Int, following: $0[2] as Int)) })
    }

    /// Reads a page for each of `requests` (at most ``maxRequestsPerStatement``): one statement
    /// per list and one for the owners' counters.
    static func fetch(_ db: Database, _ requests: ArraySlice<FollowPageRequest>, viewer: Viewer) throws -> [FollowPage] {
        let totals = try counters(db, owners: Set(requests.map { $0.list.owner.lowercased }))
        return try requests.map { request in
            let owner = request.list.owner.lowercased
            let forward = request.page.direction == .forward
            let cursor = request.page.cursor
            // Cached statements: eight shapes in all, each compiled once per connection.
            let statement = try db.cachedStatement(sql: sql(kind: request.list.kind, forward: forward, hasCursor: cursor != nil))
            var values: [(any DatabaseValueConvertible)?] = [viewer.sqlId, viewer.sqlId, owner]
            if let cursor { values += [cursor.createdAtMicroseconds, cursor.followId.lowercased] }
            values += [viewer.sqlId, request.page.limit + 1]
            var fetched: [FollowEdge] = []
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(values))
            while let row = try rows.next() {
                guard let fid = UUID(parsing: row[0] as String),
                      let follower = UUID(parsing: row[1] as String),
                      let followee = UUID(parsing: row[2] as String) else { throw StoreDataError.badId }
                let follow = Follow(id: fid, followerId: follower, followeeId: followee, createdAtMicroseconds: row[3])
                let profile = try ProfileColumns.decode(row, at: 6)
                let state = viewer.userId == nil ? nil
                    : FollowState(profileId: profile.id, viewerIsFollowing: row[4], followsViewer: row[5])
                fetched.append(FollowEdge(list: request.list, follow: follow, profile: profile, viewerState: state))
            }
            let total = totals[owner].map { request.list.kind == .followers ? $0.followers : $0.following } ?? 0
            return FollowPage.assemble(request: request, fetched: fetched, totalCount: total)
        }
    }
}
