import Foundation
import Hummingbird
import SocialDomain
import SupabaseSchema

/// The fake's follow functions: `follow_pages`, `active_follows` and the three mutations,
/// with the same rules as the SQL. Runs under ``SupabaseFake/lock``. Arguments come in, and rows
/// go out, as the `SupabaseSchema` types the stores use.
extension SupabaseFake {
    /// `follow_pages` (`withStates: false`) or `follow_pages_with_states`: the same rows, the
    /// latter with `viewer_follows`/`follows_viewer` (false for anonymous callers).
    func followPages(_ body: FollowPagesArguments?, caller: Caller, withStates: Bool = false) -> Response {
        guard let requests = body?.requests else { return Self.pgError(400, "PGRST202", "missing requests") }
        var rows: [FollowPageRow] = []
        let me: UUID? = if case .user(let id) = caller { id } else { nil }
        func stated(_ row: FollowPageRow, _ other: UUID?) -> FollowPageRow {
            guard withStates else { return row }
            var row = row
            if let me, let other {
                row.viewer_follows = activeFollowIndex(me, other) != nil
                row.follows_viewer = activeFollowIndex(other, me) != nil
            } else {
                row.viewer_follows = false
                row.follows_viewer = false
            }
            return row
        }
        for (index, request) in requests.enumerated() {
            guard let owner = UUID(uuidString: request.owner) else {
                return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
            }
            let following = request.kind == "following"
            let backward = request.backward
            let fetch = min(max(request.limit, 0), 100) + 1
            let cursor = request.cursor_us.map { ($0, request.cursor_id ?? "") }
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
                rows.append(stated(FollowPageRow(request_index: index, total_count: total), nil))
            }
            for (follow, other) in page {
                rows.append(stated(FollowPageRow(
                    request_index: index, total_count: total, follow_id: follow.id.lowercased,
                    follower_id: follow.follower.lowercased, followee_id: follow.followee.lowercased,
                    follow_created_us: follow.createdAtMicroseconds, profile: Self.row(other)), other.id))
            }
        }
        return Self.rows(rows)
    }

    func activeFollows(_ body: ActiveFollowsArguments?) -> Response {
        let rows = (body?.pairs ?? []).filter { pair in
            guard let follower = UUID(uuidString: pair.follower_id), let followee = UUID(uuidString: pair.followee_id) else { return false }
            return activeFollowIndex(follower, followee) != nil
        }
        return Self.rows(rows)
    }

    func changeFollow(_ action: FollowAction, _ body: FakeTarget?, caller: Caller) -> Response {
        let function = ["follow": "follow_profile", "unfollow": "unfollow_profile", "toggle": "toggle_follow"][action.rawValue]!
        guard case .user(let me) = caller else {
            return Self.pgError(401, "42501", "permission denied for function \(function)")
        }
        guard let target = body.flatMap({ UUID(uuidString: $0.target) }) else {
            return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
        }
        if me == target {
            return Self.condition(400, "PT400", "cannot_follow_self")
        }
        let index = followsByFollower[me]?.first { follows[$0].followee == target }
        let active = index.map { follows[$0].deletedAtMicroseconds == nil } ?? false
        // As 20250301000500: removing one's own follow works even when the profile is now hidden.
        let removing = active && action != .follow
        if blockedEither(me, target) {
            return Self.condition(404, "PT404", "profile_not_found")
        }
        if !active, me != target, let followee = profilesById[target], !followee.isPublic {
            // migration 20250301002300: a private profile the caller does not follow is asked
            return changeRequest(action, me: me, target: target, caller: caller)
        }
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
        if want && !active, let refused = countFollow(me) { return refused }
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
        return Self.json(200, FollowOutcomeRow(
            is_following: want, follower: profilesById[me].map(Self.row),
            followee: profileAsSeen(target, caller)))
    }

    /// `follow_changes(since_us, after_us, after_id, page_size)` of migration 20250301000800: the
    /// caller's own rows (a definer), undone ones too, by (updated_at, id).
    func followChanges(_ body: FollowChangesArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.pgError(401, "42501", "permission denied for function follow_changes")
        }
        guard let body else {
            return Self.pgError(404, "PGRST202", "Could not find the function public.follow_changes with those parameters")
        }
        let since = body.since_us, size = body.page_size
        let afterUs = body.after_us
        let afterId = body.after_id?.lowercased()
        let rows = (followsByFollower[me] ?? []).map { follows[$0] }
            .filter { $0.changedAtMicroseconds > since }
            .filter { row in
                guard let afterUs, let afterId else { return true }
                return (row.changedAtMicroseconds, row.id.lowercased) > (afterUs, afterId)
            }
            .sorted { ($0.changedAtMicroseconds, $0.id.lowercased) < ($1.changedAtMicroseconds, $1.id.lowercased) }
            .prefix(min(max(size, 1), 101))
        return Self.json(200, rows.map { row in
            FollowChangeRow(
                id: row.id.lowercased, follower_id: row.follower.lowercased, followee_id: row.followee.lowercased,
                created_at: Self.timestamp(row.createdAtMicroseconds), updated_at: Self.timestamp(row.changedAtMicroseconds),
                deleted_at: row.deletedAtMicroseconds.map(Self.timestamp))
        })
    }

    /// The index of the active follow `follower -> followee`, if any.
    func activeFollowIndex(_ follower: UUID, _ followee: UUID) -> Int? {
        followsByFollower[follower]?.first { follows[$0].followee == followee && follows[$0].deletedAtMicroseconds == nil }
    }
}
