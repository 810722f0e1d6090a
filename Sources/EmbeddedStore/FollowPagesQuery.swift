import Foundation
import GRDB
import SocialDomain

/// The single SQL statement that reads one page for each of many follow lists.
///
/// Each request becomes a row of a `VALUES` table (index, owner, kind, direction, cursor,
/// limit). Candidate follows are joined per request (followers through
/// `follows_followee_page_idx`, following through `follows_follower_page_idx`), filtered by the
/// keyset and by the viewer's visibility of the other profile, numbered per request with
/// `ROW_NUMBER()` in the request's direction, and cut at `limit + 1`; only then are the kept
/// rows' profile columns read (ranking every candidate with all thirteen columns attached was
/// most of the statement's time: lists are cut to 11 of 50 candidates in the load-test graph). The owner's stored counter
/// comes along as `totalCount`; a request with no edges still yields one row.
enum FollowPagesQuery {
    /// Requests bound in one statement (7 parameters each).
    static let maxRequestsPerStatement = 200

    static func sql(requestCount: Int) -> String {
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: requestCount).joined(separator: ", ")
        let keyset = """
            (req.c_at IS NULL
               OR (req.dir = 0 AND (f.created_at, f.id) < (req.c_at, req.c_id))
               OR (req.dir = 1 AND (f.created_at, f.id) > (req.c_at, req.c_id)))
            """
        return """
            WITH req(idx, owner, kind, dir, c_at, c_id, lim) AS (VALUES \(values)),
            cand AS (
              SELECT req.idx, req.dir, f.id AS fid, f.follower_id, f.followee_id, f.created_at AS fat,
                     f.follower_id AS other
              FROM req JOIN follows f ON f.followee_id = req.owner AND f.deleted_at IS NULL
              WHERE req.kind = 0 AND \(keyset)
              UNION ALL
              SELECT req.idx, req.dir, f.id, f.follower_id, f.followee_id, f.created_at, f.followee_id
              FROM req JOIN follows f ON f.follower_id = req.owner AND f.deleted_at IS NULL
              WHERE req.kind = 1 AND \(keyset)
            ),
            ranked AS (
              SELECT cand.*,
                     -- One window for both directions (a request has one): newest first is
                     -- (-fat, fid DESC), oldest first (fat, fid ASC). Two windows in a CASE
                     -- sorted every candidate twice.
                     ROW_NUMBER() OVER (
                       PARTITION BY cand.idx
                       ORDER BY CASE cand.dir WHEN 0 THEN -cand.fat ELSE cand.fat END,
                                CASE cand.dir WHEN 0 THEN NULL ELSE cand.fid END ASC,
                                CASE cand.dir WHEN 0 THEN cand.fid END DESC
                     ) AS rn
              FROM cand JOIN profiles v ON v.id = cand.other AND \(ProfileColumns.visible("v"))
            )
            SELECT req.idx, CASE req.kind WHEN 0 THEN o.follower_count ELSE o.following_count END,
                   r.fid, r.follower_id, r.followee_id, r.fat,
                   \(ProfileColumns.select("p"))
            FROM req
            LEFT JOIN profiles o ON o.id = req.owner
            LEFT JOIN ranked r ON r.idx = req.idx AND r.rn <= req.lim + 1
            LEFT JOIN profiles p ON p.id = r.other
            ORDER BY req.idx, r.rn
            """
    }

    static func arguments(_ requests: ArraySlice<FollowPageRequest>, viewer: Viewer) -> StatementArguments {
        var values: [(any DatabaseValueConvertible)?] = []
        for (offset, request) in requests.enumerated() {
            values += [
                offset, request.list.owner.lowercased, request.list.kind == .followers ? 0 : 1,
                request.page.direction == .forward ? 0 : 1,
                request.page.cursor?.createdAtMicroseconds, request.page.cursor?.followId.lowercased,
                request.page.limit,
            ]
        }
        values.append(viewer.sqlId)
        return StatementArguments(values)
    }

    /// Runs the statement for up to ``maxRequestsPerStatement`` requests.
    static func fetch(_ db: Database, _ requests: ArraySlice<FollowPageRequest>, viewer: Viewer) throws -> [FollowPage] {
        // A cached statement: this SQL is large, and compiling it per call showed in profiles.
        let statement = try db.cachedStatement(sql: sql(requestCount: requests.count))
        let rows = try Row.fetchAll(statement, arguments: arguments(requests, viewer: viewer))
        let list = Array(requests)
        var fetched = Array(repeating: [FollowEdge](), count: list.count)
        var totals = Array(repeating: 0, count: list.count)
        for row in rows {
            let index: Int = row[0]
            totals[index] = (row[1] as Int?) ?? 0
            guard let fid = (row[2] as String?).flatMap(UUID.init(uuidString:)),
                  let follower = UUID(uuidString: row[3] as String),
                  let followee = UUID(uuidString: row[4] as String) else { continue }
            let follow = Follow(id: fid, followerId: follower, followeeId: followee, createdAtMicroseconds: row[5])
            fetched[index].append(FollowEdge(list: list[index].list, follow: follow, profile: try ProfileColumns.decode(row, at: 6)))
        }
        return list.indices.map { FollowPage.assemble(request: list[$0], fetched: fetched[$0], totalCount: totals[$0]) }
    }
}
