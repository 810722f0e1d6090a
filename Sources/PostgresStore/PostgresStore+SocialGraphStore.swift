import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Two hops of the follow graph through the functions of migration 20250301002400, one
/// statement per call: a wave's profile cards in one `followed_by_viewer_following`, the
/// suggestions in one `suggested_profiles`.
extension PostgresStore: SocialGraphStore {
    public func followedByViewerFollowing(_ requests: [FollowedByRequest], viewer: Viewer) async throws -> [ProfileListPage] {
        guard !requests.isEmpty else { return [] }
        guard viewer.userId != nil else { return requests.map { _ in .empty } }
        let arguments = FollowedByArguments(requests)
        let ids = arguments.profile_ids
        // At least one row per list, for its count: `first: 0` still reports totalCount.
        let pageSize = max(arguments.page_size, 1)
        return try await read("followedByViewerFollowing", viewer: viewer) { connection, logger in
            let rows = try await connection.query("""
                select coalesce(json_agg(to_jsonb(t) - 'ord' order by t.ord), '[]')::text
                from public.followed_by_viewer_following(\(ids)::text[]::uuid[], \(pageSize)::int)
                  with ordinality as t(request_index, total_count, profile, ord)
                """, logger: logger)
            let decoded = try await Self.decodeJSON([FollowedByRow].self, from: rows, "followedByViewerFollowing")
            return try FollowedByRow.pages(decoded, answering: requests)
        }
    }

    public func suggestedProfiles(limit: Int, viewer: Viewer) async throws -> ProfileListPage {
        guard viewer.userId != nil else { return .empty }
        let pageSize = max(limit, 1)
        return try await read("suggestedProfiles", viewer: viewer) { connection, logger in
            let rows = try await connection.query("""
                select coalesce(json_agg(to_jsonb(t) - 'ord' order by t.ord), '[]')::text
                from public.suggested_profiles(\(pageSize)::int) with ordinality as t(total_count, profile, ord)
                """, logger: logger)
            return try SuggestedProfileRow.page(
                try await Self.decodeJSON([SuggestedProfileRow].self, from: rows, "suggestedProfiles"), limit: limit)
        }
    }
}
