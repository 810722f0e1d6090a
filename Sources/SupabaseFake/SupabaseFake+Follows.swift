import Foundation
import Hummingbird
import SocialDomain

/// The fake's follow functions: `follow_pages`, `active_follows` and the three mutations,
/// with the same rules as the SQL. Runs under ``SupabaseFake/lock``.
extension SupabaseFake {
    /// `follow_pages` (`withStates: false`) or `follow_pages_with_states`: the same rows, the
    /// latter with `viewer_follows`/`follows_viewer` (false for anonymous callers).
    func followPages(_ body: [String: Any], caller: Caller, withStates: Bool = false) -> Response {
        guard let requests = body["requests"] as? [[String: Any]] else { return Self.pgError(400, "PGRST202", "missing requests") }
        var rows: [[String: Any]] = []
        let me: UUID? = if case .user(let id) = caller { id } else { nil }
        func states(_ other: UUID?) -> [String: Any] {
            guard withStates else { return [:] }
            guard let me, let other else { return ["viewer_follows": false, "follows_viewer": false] }
            return ["viewer_follows": activeFollowIndex(me, other) != nil, "follows_viewer": activeFollowIndex(other, me) != nil]
        }
        for (index, request) in requests.enumerated() {
            guard let owner = (request["owner"] as? String).flatMap(UUID.init(uuidString:)) else {
                return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
            }
            let following = request["kind"] as? String == "following"
            let backward = request["backward"] as? Bool ?? false
            let fetch = min(max(request["limit"] as? Int ?? 20, 0), 100) + 1
            let cursor = (request["cursor_us"] as? NSNumber).map(\.int64Value).map { ($0, request["cursor_id"] as? String ?? "") }
            let total = profilesById[owner].flatMap { visible($0, caller) ? (following ? $0.followingCount : $0.followerCount) : nil } ?? 0
            var edges = ((following ? followsByFollower[owner] : followsByFollowee[owner]) ?? [])
                .compactMap { index -> (FakeFollow, Profile)? in
                    let f = follows[index]
                    guard f.deletedAtMicroseconds == nil, let other = profilesById[following ? f.followee : f.follower], visible(other, caller) else { return nil }
                    return (f, other)
                }
                .sorted { ($0.0.createdAtMicroseconds, $0.0.id.lowercased) > ($1.0.createdAtMicroseconds, $1.0.id.lowercased) }
            if backward { edges.reverse() }
            if let (at, id) = cursor {
                edges = edges.filter {
                    let key = ($0.0.createdAtMicroseconds, $0.0.id.lowercased)
                    return backward ? key > (at, id) : key < (at, id)
                }
            }
            let page = edges.prefix(fetch)
            if page.isEmpty {
                rows.append(["request_index": index, "total_count": total, "follow_id": NSNull(), "follower_id": NSNull(),
                             "followee_id": NSNull(), "follow_created_us": NSNull(), "profile": NSNull()]
                    .merging(states(nil)) { a, _ in a })
            }
            for (follow, other) in page {
                rows.append([
                    "request_index": index, "total_count": total, "follow_id": follow.id.lowercased,
                    "follower_id": follow.follower.lowercased, "followee_id": follow.followee.lowercased,
                    "follow_created_us": follow.createdAtMicroseconds, "profile": Self.row(other),
                ].merging(states(other.id)) { a, _ in a })
            }
        }
        return Self.rows(rows)
    }

    func activeFollows(_ body: [String: Any]) -> Response {
        let pairs = (body["pairs"] as? [[String: String]]) ?? []
        let rows = pairs.filter { pair in
            guard let follower = pair["follower_id"].flatMap(UUID.init(uuidString:)),
                  let followee = pair["followee_id"].flatMap(UUID.init(uuidString:)) else { return false }
            return activeFollowIndex(follower, followee) != nil
        }
        return Self.rows(rows)
    }

    func changeFollow(_ action: FollowAction, _ body: [String: Any], caller: Caller) -> Response {
        let function = ["follow": "follow_profile", "unfollow": "unfollow_profile", "toggle": "toggle_follow"][action.rawValue]!
        guard case .user(let me) = caller else {
            return Self.pgError(401, "42501", "permission denied for function \(function)")
        }
        guard let target = (body["target"] as? String).flatMap(UUID.init(uuidString:)) else {
            return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
        }
        if me == target {
            return Self.condition(400, "PT400", "cannot_follow_self")
        }
        let index = followsByFollower[me]?.first { follows[$0].followee == target }
        let active = index.map { follows[$0].deletedAtMicroseconds == nil } ?? false
        // As 20250301000500: removing one's own follow works even when the profile is now hidden.
        let removing = active && action != .follow
        if !removing {
            guard let followee = profilesById[target], visible(followee, caller), profilesById[me] != nil else {
                return Self.condition(404, "PT404", "profile_not_found")
            }
        }
        let want: Bool = switch action {
        case .follow: true
        case .unfollow: false
        case .toggle: !active
        }
        if want != active {
            if let index {
                let now = tick()
                follows[index].deletedAtMicroseconds = want ? nil : now
                follows[index].updatedAtMicroseconds = now
            } else {
                appendFollow(FakeFollow(id: UUID(), follower: me, followee: target, createdAtMicroseconds: tick()))
            }
            let delta = want ? 1 : -1
            profilesById[me]?.followingCount += delta
            profilesById[target]?.followerCount += delta
        }
        return Self.json(200, [
            "is_following": want,
            "follower": profilesById[me].map(Self.row) ?? NSNull(),
            "followee": profilesById[target].flatMap { visible($0, caller) ? Self.row($0) : nil } ?? NSNull(),
        ] as [String: Any])
    }

    /// `follow_changes(since_us, after_us, after_id, page_size)` of migration 20250301000800: the
    /// caller's own rows (a definer), undone ones too, by (updated_at, id).
    func followChanges(_ body: [String: Any], caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.pgError(401, "42501", "permission denied for function follow_changes")
        }
        guard let since = (body["since_us"] as? NSNumber)?.int64Value, let size = (body["page_size"] as? NSNumber)?.intValue else {
            return Self.pgError(404, "PGRST202", "Could not find the function public.follow_changes with those parameters")
        }
        let afterUs = (body["after_us"] as? NSNumber)?.int64Value
        let afterId = (body["after_id"] as? String)?.lowercased()
        let rows = (followsByFollower[me] ?? []).map { follows[$0] }
            .filter { $0.changedAtMicroseconds > since }
            .filter { row in
                guard let afterUs, let afterId else { return true }
                return (row.changedAtMicroseconds, row.id.lowercased) > (afterUs, afterId)
            }
            .sorted { ($0.changedAtMicroseconds, $0.id.lowercased) < ($1.changedAtMicroseconds, $1.id.lowercased) }
            .prefix(min(max(size, 1), 101))
        return Self.json(200, rows.map { row -> [String: Any] in
            [
                "id": row.id.lowercased, "follower_id": row.follower.lowercased, "followee_id": row.followee.lowercased,
                "created_at": Self.timestamp(row.createdAtMicroseconds), "updated_at": Self.timestamp(row.changedAtMicroseconds),
                "deleted_at": row.deletedAtMicroseconds.map(Self.timestamp) as Any? ?? NSNull(),
            ]
        })
    }

    /// The index of the active follow `follower -> followee`, if any.
    func activeFollowIndex(_ follower: UUID, _ followee: UUID) -> Int? {
        followsByFollower[follower]?.first { follows[$0].followee == followee && follows[$0].deletedAtMicroseconds == nil }
    }
}
