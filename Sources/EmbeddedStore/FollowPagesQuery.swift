import Foundation
import GRDB
import SocialDomain

/// The SQL that reads one page for each of many follow lists: per list, one walk of its page
/// index cut at `limit + 1`, in one read transaction for the whole wave.
///
/// Each list is a cached statement (one of sixteen: followers or following, newest or oldest
/// first, with or without a keyset cursor, probing the viewer's relations or not) that walks
/// `follows_followee_page_idx` or `follows_follower_page_idx` from the cursor, skips follows
/// whose other profile the viewer may not see, and stops after `limit + 1` rows; the owner's
/// stored counter is its `totalCount`. A list of an owner the viewer does not see whole is
/// empty and counted 0 without a walk (``SocialRules/showsLists(of:)``).
///
/// The viewer's relation to each row's profile (`viewerIsFollowing`, `followsViewer`) comes
/// either from two index probes per row, in the statement, or from the viewer's own follows both
/// ways, read once per call of ``fetch(_:_:viewer:)`` (up to 200 lists) and looked up in memory
/// (``ViewerRelations``): whichever reads fewer rows, as the stored counters tell beforehand.
/// A follower graph's second wave has 550 rows, so 1,100 probes, while its viewer typically
/// follows and is followed by a few dozen; the probes were a tenth of the graph's CPU.
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
    /// from a cursor or from the start. Parameters: with `probes`, the viewer twice (the follow
    /// state of each row's profile: two probes of the pair index); then owner, [cursor time,
    /// cursor id], viewer, limit. Without `probes`, columns 4 and 5 are NULL.
    static func sql(kind: FollowList.Kind, forward: Bool, hasCursor: Bool, probes: Bool) -> String {
        statements[(probes ? 8 : 0) + (kind == .followers ? 4 : 0) + (forward ? 2 : 0) + (hasCursor ? 1 : 0)]
    }

    /// The sixteen statements, written once: a graph asks for 50 lists, and building each text
    /// (then hashing it to find the cached statement) showed in its profile.
    private static let statements: [String] = [false, true].flatMap { probes in
        [FollowList.Kind.following, .followers].flatMap { kind in
            [false, true].flatMap { forward in
                [false, true].map { hasCursor in text(kind: kind, forward: forward, hasCursor: hasCursor, probes: probes) }
            }
        }
    }

    private static func text(kind: FollowList.Kind, forward: Bool, hasCursor: Bool, probes: Bool) -> String {
        let (ownerColumn, otherColumn) = kind == .followers ? ("followee_id", "follower_id") : ("follower_id", "followee_id")
        let order = forward ? "DESC" : "ASC"
        let keyset = hasCursor ? "AND (f.created_at, f.id) \(forward ? "<" : ">") (?, ?)" : ""
        let relations = probes
            ? """
              EXISTS (SELECT 1 FROM follows v WHERE v.follower_id = ? AND v.followee_id = p.id AND v.deleted_at IS NULL),
              EXISTS (SELECT 1 FROM follows v WHERE v.follower_id = p.id AND v.followee_id = ? AND v.deleted_at IS NULL),
              """
            : "NULL, NULL,"
        return """
            SELECT f.id, f.follower_id, f.followee_id, f.created_at,
              \(relations)
              \(ProfileColumns.select("p"))
            FROM follows f JOIN profiles p ON p.id = f.\(otherColumn)
            WHERE f.\(ownerColumn) = ? AND f.deleted_at IS NULL \(keyset) AND \(ProfileColumns.visible("p"))
            ORDER BY f.created_at \(order), f.id \(order)
            LIMIT ?
            """
    }

    /// The signed-in viewer's active follows both ways, for looking up each row's relation to
    /// the viewer in memory instead of probing the pair index twice per row.
    struct ViewerRelations {
        /// Whom the viewer follows.
        var following: Set<UUID>
        /// Who follows the viewer.
        var followers: Set<UUID>

        /// The relations of `viewer`, read when their rows (the viewer's stored counters) are
        /// at most `rowBudget`, the probes' bound; nil when the probes may read less, or for an
        /// anonymous viewer.
        static func read(_ db: Database, viewer: Viewer, counters: (followers: Int, following: Int)?, rowBudget: Int) throws -> Self? {
            guard let id = viewer.sqlId, let counters, counters.followers + counters.following <= rowBudget else { return nil }
            func ids(_ sql: String) throws -> Set<UUID> {
                var result = Set<UUID>()
                let rows = try String.fetchCursor(db.cachedStatement(sql: sql), arguments: [id])
                while let text = try rows.next() {
                    guard let uuid = UUID(parsing: text) else { throw StoreDataError.badId }
                    result.insert(uuid)
                }
                return result
            }
            return Self(
                following: try ids("SELECT followee_id FROM follows WHERE follower_id = ? AND deleted_at IS NULL"),
                followers: try ids("SELECT follower_id FROM follows WHERE followee_id = ? AND deleted_at IS NULL"))
        }
    }

    /// The stored counters of the owners the viewer sees whole, one statement for the wave. An
    /// owner the viewer does not see (a card, a block, an anonymous viewer and a private owner)
    /// is absent: its lists are empty and counted 0 (``SocialRules/listTotal(storedCount:access:)``).
    static func counters(_ db: Database, owners: Set<String>, viewer: Viewer) throws -> [String: (followers: Int, following: Int)] {
        guard !owners.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: owners.count).joined(separator: ", ")
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT o.id, o.follower_count, o.following_count FROM profiles o
                WHERE o.id IN (\(marks)) AND \(ProfileColumns.visible("o"))
                """),
            arguments: StatementArguments(Array(owners)) + [viewer.sqlId])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, (followers: $0[1] as Int, following: $0[2] as Int)) })
    }

    /// Reads a page for each of `requests` (at most ``maxRequestsPerStatement``): one statement
    /// per list, one for the owners' counters (and the viewer's), and two for the viewer's
    /// relations when they are read instead of probed.
    static func fetch(_ db: Database, _ requests: ArraySlice<FollowPageRequest>, viewer: Viewer) throws -> [FollowPage] {
        var owners = Set(requests.map { $0.list.owner.lowercased })
        if let me = viewer.sqlId { owners.insert(me) }
        let totals = try counters(db, owners: owners, viewer: viewer)
        // Probing costs two index lookups per row read; the relations, one row per follow of the
        // viewer's. A list reads at most its page's limit and one, and at most what its owner's
        // counter holds.
        let rowBudget = 2 * requests.reduce(0) { sum, request in
            let counted = totals[request.list.owner.lowercased].map { request.list.kind == .followers ? $0.followers : $0.following }
            return sum + min(request.page.rowsToFetch, counted ?? 0)
        }
        let relations = try ViewerRelations.read(db, viewer: viewer, counters: viewer.sqlId.flatMap { totals[$0] }, rowBudget: rowBudget)
        let probes = viewer.userId != nil && relations == nil
        return try requests.map { request in
            let owner = request.list.owner.lowercased
            // Behind the owner's card (or hidden): nothing listed, nothing counted.
            guard totals[owner] != nil else { return FollowPage.assemble(request: request, fetched: [], totalCount: 0) }
            let forward = request.page.direction == .forward
            let cursor = request.page.cursor
            // Cached statements: sixteen shapes in all, each compiled once per connection.
            let statement = try db.cachedStatement(
                sql: sql(kind: request.list.kind, forward: forward, hasCursor: cursor != nil, probes: probes))
            var values: [(any DatabaseValueConvertible)?] = probes ? [viewer.sqlId, viewer.sqlId, owner] : [owner]
            if let cursor { values += [cursor.createdAtMicroseconds, cursor.followId.lowercased] }
            values += [viewer.sqlId, request.page.rowsToFetch]
            var fetched: [FollowEdge] = []
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(values))
            while let row = try rows.next() {
                guard let fid = UUID(parsing: row[0] as String),
                      let follower = UUID(parsing: row[1] as String),
                      let followee = UUID(parsing: row[2] as String) else { throw StoreDataError.badId }
                let follow = Follow(id: fid, followerId: follower, followeeId: followee, createdAtMicroseconds: row[3])
                let profile = try ProfileColumns.decode(row, at: 6)
                let state: FollowState? =
                    if viewer.userId == nil {
                        nil
                    } else if let relations {
                        FollowState(
                            profileId: profile.id, viewerIsFollowing: relations.following.contains(profile.id),
                            followsViewer: relations.followers.contains(profile.id))
                    } else {
                        FollowState(profileId: profile.id, viewerIsFollowing: row[4], followsViewer: row[5])
                    }
                fetched.append(FollowEdge(list: request.list, follow: follow, profile: profile, viewerState: state))
            }
            let total = totals[owner].map { request.list.kind == .followers ? $0.followers : $0.following } ?? 0
            return FollowPage.assemble(request: request, fetched: fetched, totalCount: total)
        }
    }
}
