import Foundation
import Hummingbird
import SocialDomain
import SupabaseSchema

/// The fake's two-hop functions of migration 20250301002400, `followed_by_viewer_following` and
/// `suggested_profiles`, with the same rules as the SQL. Runs under ``SupabaseFake/lock``.
extension SupabaseFake {
    func socialGraphRoute(_ request: RecordedRequest, caller: Caller) -> Response? {
        switch (request.method, request.path) {
        case ("POST", "/rest/v1/rpc/followed_by_viewer_following"):
            return followedByViewerFollowing(Self.arguments(FollowedByArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/suggested_profiles"):
            return suggestedProfiles(Self.arguments(SuggestedProfilesArguments.self, request), caller: caller)
        default:
            return nil
        }
    }

    /// Whom `id` follows now (active rows), in no order.
    private func activeFollowees(of id: UUID) -> [UUID] {
        (followsByFollower[id] ?? []).map { follows[$0] }.filter { $0.deletedAtMicroseconds == nil }.map(\.followee)
    }

    /// Most followed first, then id, as the SQL orders profiles.
    private static func byFollowers(_ a: Profile, _ b: Profile) -> Bool {
        (a.followerCount, b.id.lowercased) > (b.followerCount, a.id.lowercased)
    }

    /// Per profile: the caller's follows (visible to the caller) who follow it, at most
    /// `page_size` (1...100) rows, each with the count; one null row for an empty list.
    /// Signed-in callers only (anon holds no execute privilege: 42501).
    func followedByViewerFollowing(_ body: FollowedByArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.pgError(401, "42501", "permission denied for function followed_by_viewer_following")
        }
        guard let body else { return Self.pgError(400, "PGRST202", "missing profile_ids") }
        let mine = activeFollowees(of: me).compactMap { profilesById[$0] }.filter { visible($0, caller) }
        let size = min(max(body.page_size, 1), 100)
        var rows: [FollowedByRow] = []
        for (index, text) in body.profile_ids.enumerated() {
            guard let target = UUID(uuidString: text) else { return Self.pgError(400, "22P02", "invalid input syntax for type uuid") }
            // follows_read: the row to the target shows only when the target is visible too.
            let targetVisible = profilesById[target].map { visible($0, caller) } ?? false
            let mutuals = targetVisible ? mine.filter { activeFollowIndex($0.id, target) != nil }.sorted(by: Self.byFollowers) : []
            if mutuals.isEmpty { rows.append(FollowedByRow(request_index: index, total_count: 0)) }
            for profile in mutuals.prefix(size) {
                rows.append(FollowedByRow(request_index: index, total_count: mutuals.count, profile: Self.row(profile)))
            }
        }
        return Self.rows(rows)
    }

    /// Friends of friends: public profiles followed by the public profiles the caller follows,
    /// without the caller and whom the caller follows, by paths, follower count, id.
    func suggestedProfiles(_ body: SuggestedProfilesArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "PT401", "authentication_required", details: "action=view_suggestions")
        }
        let followed = Set(activeFollowees(of: me))
        var paths: [UUID: Int] = [:]
        // bounded as the SQL is: the most recent follows of the most recent follows
        for middle in recentFollowees(of: me, SuggestionBounds.middleProfiles) {
            for candidate in recentFollowees(of: middle, SuggestionBounds.followsPerMiddleProfile) { paths[candidate, default: 0] += 1 }
        }
        let ranked = paths.compactMap { id, count -> (Profile, Int)? in
            guard id != me, !followed.contains(id), let profile = profilesById[id], profile.isPublic,
                  followRequests[FollowPair(follower: me, followee: id)]?.pending != true, !blockedEither(me, id) else { return nil }
            return (profile, count)
        }.sorted { a, b in a.1 != b.1 ? a.1 > b.1 : Self.byFollowers(a.0, b.0) }
        let size = min(max(body?.page_size ?? 20, 1), 100)
        return Self.rows(ranked.prefix(size).map { SuggestedProfileRow(total_count: ranked.count, profile: Self.row($0.0)) })
    }

    /// The `limit` most recent active follows of `follower` (created_at, id descending).
    func recentFollowees(of follower: UUID, _ limit: Int) -> [UUID] {
        (followsByFollower[follower] ?? []).map { follows[$0] }
            .filter { $0.deletedAtMicroseconds == nil }
            .sorted { ($0.createdAtMicroseconds, $0.id.lowercased) > ($1.createdAtMicroseconds, $1.id.lowercased) }
            .prefix(limit).map(\.followee)
    }
}
