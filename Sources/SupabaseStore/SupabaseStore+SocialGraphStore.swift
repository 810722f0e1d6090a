import Foundation
import SocialDomain
import SupabaseSchema

/// Two hops of the follow graph through the functions of migration 20250301002400: a wave's
/// profile cards in one `followed_by_viewer_following` request, the suggestions in one
/// `suggested_profiles` request.
extension SupabaseStore: SocialGraphStore {
    /// `POST /rest/v1/rpc/followed_by_viewer_following` with `{"profile_ids":[...],"page_size":n}`:
    /// one request for a whole query level, unless its lists could return more than
    /// ``SupabaseConfiguration/maxRows`` rows together (then as few requests as keep each under
    /// it: PostgREST would cut the answer short without an error).
    public func followedByViewerFollowing(_ requests: [FollowedByRequest], viewer: Viewer) async throws -> [ProfileListPage] {
        try await call("followedByViewerFollowing") {
            guard !requests.isEmpty else { return [] }
            guard viewer.userId != nil else { return requests.map { _ in .empty } }
            var pages: [ProfileListPage] = []
            for chunk in Self.followedByChunks(requests, maxRows: configuration.maxRows) {
                var arguments = FollowedByArguments(Array(chunk))
                // At least one row per list, for its count: `first: 0` still reports totalCount.
                arguments.page_size = max(arguments.page_size, 1)
                let request = SupabaseRequest(
                    method: .post, service: .rest, path: "/rest/v1/rpc/followed_by_viewer_following",
                    headers: [("Content-Type", "application/json")], body: try Self.json(arguments),
                    idempotent: true, operation: "followedByViewerFollowing")
                let rows = try decode([FollowedByRow].self, try await rest(request, viewer: viewer), "followedByViewerFollowing")
                pages += try FollowedByRow.pages(rows, answering: Array(chunk))
            }
            return pages
        }
    }

    /// Consecutive runs of `requests` whose rows (each list up to the run's largest page size, at
    /// least one row) stay within `maxRows`.
    static func followedByChunks(_ requests: [FollowedByRequest], maxRows: Int) -> [ArraySlice<FollowedByRequest>] {
        var chunks: [ArraySlice<FollowedByRequest>] = []
        var start = requests.startIndex, widest = 1
        for index in requests.indices {
            let next = max(widest, requests[index].limit, 1)
            if index > start && (index - start + 1) * next > maxRows {
                chunks.append(requests[start..<index])
                start = index
                widest = max(requests[index].limit, 1)
            } else {
                widest = next
            }
        }
        if start < requests.endIndex { chunks.append(requests[start...]) }
        return chunks
    }

    /// `POST /rest/v1/rpc/suggested_profiles` with `{"page_size":n}`: the first `limit` in rank
    /// order, each row with the count of them all.
    public func suggestedProfiles(limit: Int, viewer: Viewer) async throws -> ProfileListPage {
        try await call("suggestedProfiles") {
            guard viewer.userId != nil else { return .empty }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/suggested_profiles",
                headers: [("Content-Type", "application/json")],
                body: try Self.json(SuggestedProfilesArguments(page_size: max(limit, 1))),
                idempotent: true, operation: "suggestedProfiles")
            let rows = try decode([SuggestedProfileRow].self, try await rest(request, viewer: viewer), "suggestedProfiles")
            return try SuggestedProfileRow.page(rows, limit: limit)
        }
    }
}
