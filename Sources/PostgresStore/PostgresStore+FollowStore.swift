import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Follows through the migrations' functions, one statement per call: every page of a loader
/// wave in one `follow_page_rows` (plain columns, ``FollowPageColumns``), every pair in one
/// `active_follows`, each mutation one follow function (check, restore and counters in its
/// transaction).
extension PostgresStore: FollowStore {
    public func followPages(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] {
        guard !requests.isEmpty else { return [] }
        let arguments = try Self.json(FollowPagesArguments(requests: requests.map(FollowPagesArguments.Item.init)).requests)
        let signedIn = viewer.userId != nil
        return try await read("followPages", viewer: viewer) { connection, logger in
            var rows: [(requestIndex: Int, totalCount: Int, edge: FollowEdge?)] = []
            for try await row in try await connection.execute(FollowPageRowsStatement(requests: arguments), logger: logger) {
                let columns = try FollowPageColumns(row, answering: requests, signedIn: signedIn)
                rows.append((columns.requestIndex, columns.totalCount, columns.edge))
            }
            return FollowPageRow.assemble(answering: requests, rows: rows)
        }
    }

    public func activeFollows(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        guard !pairs.isEmpty else { return [] }
        let arguments = try Self.json(Set(pairs).map(ActiveFollowsArguments.Pair.init))
        return try await read("activeFollows", viewer: viewer) { connection, logger in
            var active = Set<FollowPair>()
            for try await pair in try await connection.execute(ActiveFollowsStatement(pairs: arguments), logger: logger) {
                active.insert(pair)
            }
            return active
        }
    }

    /// `follow_profile`, `unfollow_profile` or `toggle_follow`: they raise with a hint naming the
    /// domain case (``SchemaErrors``).
    public func changeFollow(_ change: FollowChange, viewer: Viewer) async throws -> FollowOutcome {
        let pair = change.pair
        guard viewer.userId == pair.follower else { throw DomainError.notAuthorized }
        let function = switch change.action {
        case .follow: "public.follow_profile"
        case .unfollow: "public.unfollow_profile"
        case .toggle: "public.toggle_follow"
        }
        return try await call("changeFollow", viewer: viewer) { connection, logger in
            let rows = try await connection.query("select \(unescaped: function)(\(pair.followee)::uuid)::text", logger: logger)
            let outcome = try await Self.decodeJSON(FollowOutcomeRow.self, from: rows, "changeFollow")
            return try outcome.outcome(viewer: viewer)
        }
    }

    /// `follow_changes` (migration 20250301000800), in the function's order; `limit + 1` rows tell
    /// whether a next page exists.
    public func followChanges(_ request: FollowSyncRequest, viewer: Viewer) async throws -> FollowSyncPage {
        guard viewer.userId != nil else { return FollowSyncPage(records: [], hasNextPage: false) }
        return try await read("followChanges", viewer: viewer) { connection, logger in
            let since = request.sinceMicroseconds
            let afterUs = request.after?.updatedAtMicroseconds
            let afterId = request.after?.followId
            let pageSize = request.rowsToFetch
            let rows = try await connection.query("""
                select coalesce(json_agg(to_jsonb(c) - 'ord' order by c.ord), '[]')::text
                from public.follow_changes(\(since)::bigint, \(afterUs)::bigint, \(afterId)::uuid, \(pageSize)::int)
                  with ordinality as c(id, follower_id, followee_id, created_at, updated_at, deleted_at, ord)
                """, logger: logger)
            let records = try await Self.decodeJSON([FollowChangeRow].self, from: rows, "followChanges").map { try $0.record() }
            return FollowSyncPage.assemble(request: request, fetched: records)
        }
    }
}
