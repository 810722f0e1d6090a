import Foundation
import Hummingbird
import SocialDomain

/// The fake's follow functions: `follow_pages`, `active_follows` and the three mutations,
/// with the same rules as the SQL. Runs under ``SupabaseFake/lock``.
extension SupabaseFake {
    func followPages(_ body: [String: Any], caller: Caller) -> Response {
        guard let requests = body["requests"] as? [[String: Any]] else { return Self.pgError(400, "PGRST202", "missing requests") }
        // Active follows by the owner's side, built once per call (load-test graphs hold
        // tens of thousands of follows).
        var byFollower: [UUID: [FakeFollow]] = [:], byFollowee: [UUID: [FakeFollow]] = [:]
        for follow in follows where follow.deletedAtMicroseconds == nil {
            byFollower[follow.follower, default: []].append(follow)
            byFollowee[follow.followee, default: []].append(follow)
        }
        var rows: [[String: Any]] = []
        for (index, request) in requests.enumerated() {
            guard let owner = (request["owner"] as? String).flatMap(UUID.init(uuidString:)) else {
                return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
            }
            let following = request["kind"] as? String == "following"
            let backward = request["backward"] as? Bool ?? false
            let fetch = min(max(request["limit"] as? Int ?? 20, 0), 100) + 1
            let cursor = (request["cursor_us"] as? NSNumber).map(\.int64Value).map { ($0, request["cursor_id"] as? String ?? "") }
            let total = profilesById[owner].flatMap { visible($0, caller) ? (following ? $0.followingCount : $0.followerCount) : nil } ?? 0
            var edges = ((following ? byFollower[owner] : byFollowee[owner]) ?? [])
                .compactMap { f -> (FakeFollow, Profile)? in
                    guard let other = profilesById[following ? f.followee : f.follower], visible(other, caller) else { return nil }
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
                             "followee_id": NSNull(), "follow_created_us": NSNull(), "profile": NSNull()])
            }
            for (follow, other) in page {
                rows.append([
                    "request_index": index, "total_count": total, "follow_id": follow.id.lowercased,
                    "follower_id": follow.follower.lowercased, "followee_id": follow.followee.lowercased,
                    "follow_created_us": follow.createdAtMicroseconds, "profile": Self.row(other),
                ])
            }
        }
        return Self.rows(rows)
    }

    func activeFollows(_ body: [String: Any]) -> Response {
        let pairs = (body["pairs"] as? [[String: String]]) ?? []
        let active = Set(follows.lazy.filter { $0.deletedAtMicroseconds == nil }.map { FollowPair(follower: $0.follower, followee: $0.followee) })
        let rows = pairs.filter { pair in
            guard let follower = pair["follower_id"].flatMap(UUID.init(uuidString:)),
                  let followee = pair["followee_id"].flatMap(UUID.init(uuidString:)) else { return false }
            return active.contains(FollowPair(follower: follower, followee: followee))
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
            return Self.pgError(400, "PT400", "You cannot follow yourself", hint: "cannot_follow_self")
        }
        guard let followee = profilesById[target], visible(followee, caller), profilesById[me] != nil else {
            return Self.pgError(404, "PT404", "Profile not found", hint: "profile_not_found")
        }
        let index = follows.firstIndex { $0.follower == me && $0.followee == target }
        let active = index.map { follows[$0].deletedAtMicroseconds == nil } ?? false
        let want: Bool = switch action {
        case .follow: true
        case .unfollow: false
        case .toggle: !active
        }
        if want != active {
            if let index {
                follows[index].deletedAtMicroseconds = want ? nil : tick()
            } else {
                follows.append(FakeFollow(id: UUID(), follower: me, followee: target, createdAtMicroseconds: tick()))
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
}
