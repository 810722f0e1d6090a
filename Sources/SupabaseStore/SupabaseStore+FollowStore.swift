import Foundation
import SocialDomain
import SupabaseSchema

/// Follows: many pages in one `follow_pages` call, many pairs in one `active_follows` call,
/// and each mutation as one SQL function (check, restore and counters in one transaction).
extension SupabaseStore: FollowStore {
    /// Lists per `follow_pages` request.
    static let maxPagesPerRequest = 200

    /// `POST /rest/v1/rpc/follow_pages_with_states` with `{"requests":[{owner, kind, backward,
    /// cursor_us, cursor_id, limit}, ...]}` (migration 20250301001100: `follow_pages`' rows plus
    /// the caller's follow state toward each profile): one request for a whole query level, unless its pages could
    /// return more than ``SupabaseConfiguration/maxRows`` rows together (then as few requests as
    /// keep each under it: PostgREST would cut the answer short without an error).
    public func followPages(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] {
        try await call("followPages") {
            var pages: [FollowPage] = []
            for chunk in Self.rowBudgetChunks(requests, maxRows: configuration.maxRows) {
                pages += try await followPageChunk(Array(chunk), viewer: viewer)
            }
            return pages
        }
    }

    /// Consecutive runs of `requests` that each ask for at most `maxRows` rows and
    /// ``maxPagesPerRequest`` lists. A page of limit `n` returns up to `n + 1` rows (the extra one
    /// tells whether there is a next page); an empty list still returns one row with its count.
    static func rowBudgetChunks(_ requests: [FollowPageRequest], maxRows: Int) -> [ArraySlice<FollowPageRequest>] {
        var chunks: [ArraySlice<FollowPageRequest>] = []
        var start = requests.startIndex, rows = 0
        for index in requests.indices {
            let pageRows = max(requests[index].page.rowsToFetch, 1)
            if index > start && (rows + pageRows > maxRows || index - start == maxPagesPerRequest) {
                chunks.append(requests[start..<index])
                start = index
                rows = 0
            }
            rows += pageRows
        }
        if start < requests.endIndex { chunks.append(requests[start...]) }
        return chunks
    }

    private func followPageChunk(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] {
        let body = FollowPagesArguments(requests: requests.map(FollowPagesArguments.Item.init))
        let request = SupabaseRequest(
            method: .post, service: .rest, path: "/rest/v1/rpc/follow_pages_with_states",
            headers: [("Content-Type", "application/json")], body: try Self.json(body),
            idempotent: true, operation: "followPages")
        let rows = try decode([FollowPageRow].self, try await rest(request, viewer: viewer), "followPages")
        return try FollowPageRow.pages(rows, answering: requests, signedIn: viewer.userId != nil)
    }

    /// `POST /rest/v1/rpc/active_follows` with `{"pairs":[{follower_id, followee_id}, ...]}`:
    /// one request for up to ``SupabaseConfiguration/maxRows`` pairs (at most one row each; the
    /// pairs travel in the body, so URL length does not limit them as it does `in.(...)` reads).
    public func activeFollows(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        try await call("activeFollows") {
            guard !pairs.isEmpty else { return [] }
            var active = Set<FollowPair>()
            for chunk in Array(Set(pairs)).sorted(by: { ($0.follower.lowercased, $0.followee.lowercased) < ($1.follower.lowercased, $1.followee.lowercased) })
                .chunked(max(configuration.maxRows, 1)) {
                let body = ActiveFollowsArguments(pairs: chunk.map { .init(follower_id: $0.follower.lowercased, followee_id: $0.followee.lowercased) })
                let request = SupabaseRequest(
                    method: .post, service: .rest, path: "/rest/v1/rpc/active_follows",
                    headers: [("Content-Type", "application/json")], body: try Self.json(body),
                    idempotent: true, operation: "activeFollows")
                let rows = try decode([ActiveFollowsArguments.Pair].self, try await rest(request, viewer: viewer), "activeFollows")
                for row in rows { active.insert(try row.pair()) }
            }
            return active
        }
    }

    /// `POST /rest/v1/rpc/follow_profile | unfollow_profile | toggle_follow` with
    /// `{"target":"<uuid>"}`; the answer carries the new state and both profiles. Never retried.
    public func changeFollow(_ change: FollowChange, viewer: Viewer) async throws -> FollowOutcome {
        try await call("changeFollow") {
            let pair = change.pair
            guard viewer.userId == pair.follower else { throw DomainError.notAuthorized }
            let function = switch change.action {
            case .follow: "follow_profile"
            case .unfollow: "unfollow_profile"
            case .toggle: "toggle_follow"
            }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/\(function)",
                headers: [("Content-Type", "application/json")],
                body: try Self.json(["target": pair.followee.lowercased]),
                idempotent: false, operation: "changeFollow")
            let outcome = try decode(FollowOutcomeRow.self, try await rest(request, viewer: viewer), "changeFollow")
            return try outcome.outcome(viewer: viewer)
        }
    }
}

