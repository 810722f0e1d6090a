import Foundation
import Hummingbird
import SocialDomain
import SupabaseSchema

/// A row of `follow_requests`.
struct FakeFollowRequest {
    var pending: Bool
    var createdAtMicroseconds: Int64
    var decidedAtMicroseconds: Int64?
}

/// The fake's side of migration 20250301002300: cards, follow requests and their answers, with
/// the same rules as the SQL. Runs under ``SupabaseFake/lock``.
extension SupabaseFake {
    func followRequestRoute(_ request: RecordedRequest, caller: Caller) -> Response? {
        switch (request.method, request.path) {
        case ("POST", "/rest/v1/rpc/profile_cards"):
            return profileCards(Self.arguments(FakeCardArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/pending_follow_requests"):
            return pendingRequests(Self.arguments(PendingFollowRequestsArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/follow_request_page"):
            return requestPage(Self.arguments(FakeRequestPageArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/answer_follow_request"):
            return answerRequest(Self.arguments(FakeAnswerArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/block_profile"):
            return changeBlock(true, Self.arguments(FakeTarget.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/unblock_profile"):
            return changeBlock(false, Self.arguments(FakeTarget.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/blocked_profiles_page"):
            return blockedPage(Self.arguments(FakeRequestPageArguments.self, request), caller: caller)
        default:
            return nil
        }
    }

    /// The card row of a private profile (`profile_cards`): what is behind the card is null.
    static func cardRow(_ p: Profile) -> ProfileRow {
        var row = row(p.card())
        row.card = true
        return row
    }

    /// `social_private.profile_as_seen`: the whole row, the card, or nil.
    func profileAsSeen(_ id: UUID, _ caller: Caller) -> ProfileRow? {
        guard let profile = profilesById[id] else { return nil }
        if visible(profile, caller) { return Self.row(profile) }
        if case .user(let me) = caller, !blockedEither(me, id) { return Self.cardRow(profile) }
        return nil
    }

    func profileCards(_ body: FakeCardArguments?, caller: Caller) -> Response {
        guard case .user = caller else { return Self.pgError(401, "42501", "permission denied for function profile_cards") }
        let ids = Set((body?.ids ?? []).compactMap(UUID.init(uuidString:)))
        let handles = Set((body?.handles ?? []).map { $0.lowercased() })
        let cards = profilesById.values
            .filter { (ids.contains($0.id) || handles.contains($0.handle.lowercased())) && !visible($0, caller) }
            .filter { profile in if case .user(let me) = caller { !blockedEither(me, profile.id) } else { false } }
            .sorted { $0.id.lowercased < $1.id.lowercased }
            .map(Self.cardRow)
        return Self.json(200, cards)
    }

    func pendingRequests(_ body: PendingFollowRequestsArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for function pending_follow_requests") }
        let rows = (body?.pairs ?? []).compactMap { pair -> PendingFollowRequestRow? in
            guard let requester = UUID(uuidString: pair.follower_id), let target = UUID(uuidString: pair.followee_id),
                  requester == me || target == me,
                  followRequests[FollowPair(follower: requester, followee: target)]?.pending == true else { return nil }
            return PendingFollowRequestRow(requester_id: requester.lowercased, target_id: target.lowercased)
        }
        return Self.rows(rows)
    }

    func requestPage(_ body: FakeRequestPageArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "PT401", "authentication_required", details: "action=manage_follow_requests")
        }
        let pending = followRequests.filter { $0.key.followee == me && $0.value.pending }
            .map { (requester: $0.key.follower, at: $0.value.createdAtMicroseconds) }
            .sorted { ($0.at, $0.requester.lowercased) > ($1.at, $1.requester.lowercased) }
        let after = body.flatMap { b in b.after_us.map { ($0, b.after_id?.lowercased() ?? "") } }
        let page = pending.filter { after == nil || ($0.at, $0.requester.lowercased) < after! }
            .prefix(max(body?.page_size ?? 21, 0))
        return Self.json(200, FollowRequestPageRow(total: pending.count, requests: page.compactMap { item in
            profileAsSeen(item.requester, caller).map { FollowRequestPageRow.Request(created_us: item.at, requester: $0) }
        }))
    }

    func answerRequest(_ body: FakeAnswerArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "PT401", "authentication_required", details: "action=manage_follow_requests")
        }
        guard let body, let requester = UUID(uuidString: body.requester) else {
            return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
        }
        let pair = FollowPair(follower: requester, followee: me)
        guard followRequests[pair]?.pending == true else { return Self.condition(404, "PT404", "follow_request_not_found") }
        if body.approve {
            approve(pair)
        } else {
            followRequests[pair] = FakeFollowRequest(pending: false, createdAtMicroseconds: followRequests[pair]!.createdAtMicroseconds,
                                                     decidedAtMicroseconds: tick())
        }
        guard let asker = profileAsSeen(requester, caller), let owner = profilesById[me].map(Self.row) else {
            return Self.condition(404, "PT404", "follow_request_not_found")
        }
        return Self.json(200, FollowRequestAnswerRow(approved: body.approve, requester: asker, owner: owner))
    }

    /// The request becomes a follow (restoring an undone one), counters with it.
    func approve(_ pair: FollowPair) {
        followRequests[pair] = nil
        guard activeFollowIndex(pair.follower, pair.followee) == nil else { return }
        if let index = followsByFollower[pair.follower]?.first(where: { follows[$0].followee == pair.followee }) {
            let now = tick()
            follows[index].deletedAtMicroseconds = nil
            follows[index].updatedAtMicroseconds = now
        } else {
            appendFollow(FakeFollow(id: UUID(), follower: pair.follower, followee: pair.followee, createdAtMicroseconds: tick()))
        }
        profilesById[pair.follower]?.followingCount += 1
        profilesById[pair.followee]?.followerCount += 1
    }

    func approveAllPending(target: UUID) {
        for pair in followRequests.filter({ $0.key.followee == target && $0.value.pending }).map(\.key) { approve(pair) }
    }

    /// `social_private.change_follow_request`.
    func changeRequest(_ action: FollowAction, me: UUID, target: UUID, caller: Caller) -> Response {
        let pair = FollowPair(follower: me, followee: target)
        let existing = followRequests[pair]
        let pending = existing?.pending == true
        let ask = action == .follow || (action == .toggle && !pending)
        var changed = false
        if !ask {
            if pending { followRequests[pair] = nil; changed = true }
        } else if !pending {
            let now = tick()
            if let decided = existing?.decidedAtMicroseconds,
               let wait = FollowRequestRules.waitAfterDecline(declinedAt: decided, now: now) {
                return Self.condition(429, "PT429", "follow_request_declined", details: "retry_after=\(wait)")
            }
            if let refused = countFollow(me) { return refused }
            followRequests[pair] = FakeFollowRequest(pending: true, createdAtMicroseconds: now)
            changed = true
        }
        return Self.json(200, FollowOutcomeRow(
            is_following: false, follower: profileAsSeen(me, caller), followee: profileAsSeen(target, caller),
            request_status: ask ? "pending" : "none", changed: changed))
    }
}

struct FakeCardArguments: Decodable {
    var ids: [String]?
    var handles: [String]?
}

struct FakeRequestPageArguments: Decodable {
    var after_us: Int64?
    var after_id: String?
    var page_size: Int?
}

struct FakeAnswerArguments: Decodable {
    var requester: String
    var approve: Bool
}

extension SupabaseFake {
    /// `block_profile` / `unblock_profile`: a block undoes the follows and deletes the requests
    /// between the two, both ways.
    func changeBlock(_ block: Bool, _ body: FakeTarget?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "PT401", "authentication_required", details: "action=block_users")
        }
        guard let target = body.flatMap({ UUID(uuidString: $0.target) }) else {
            return Self.pgError(400, "22P02", "invalid input syntax for type uuid")
        }
        if block && me == target { return Self.condition(400, "PT400", "cannot_block_self") }
        guard profilesById[target] != nil else { return Self.condition(404, "PT404", "profile_not_found") }
        let pair = FollowPair(follower: me, followee: target)
        var changed = false
        if block, blocks[pair] == nil {
            blocks[pair] = tick()
            changed = true
            for (follower, followee) in [(me, target), (target, me)] {
                if let index = activeFollowIndex(follower, followee) {
                    let now = tick()
                    follows[index].deletedAtMicroseconds = now
                    follows[index].updatedAtMicroseconds = now
                    profilesById[follower]?.followingCount -= 1
                    profilesById[followee]?.followerCount -= 1
                }
                followRequests[FollowPair(follower: follower, followee: followee)] = nil
            }
        } else if !block, blocks[pair] != nil {
            blocks[pair] = nil
            changed = true
        }
        guard let viewer = profilesById[me].map(Self.row) else { return Self.condition(404, "PT404", "profile_not_found") }
        return Self.json(200, BlockOutcomeRow(blocked: block, changed: changed, viewer: viewer))
    }

    func blockedPage(_ body: FakeRequestPageArguments?, caller: Caller) -> Response {
        guard case .user(let me) = caller else {
            return Self.condition(401, "PT401", "authentication_required", details: "action=block_users")
        }
        let mine = blocks.filter { $0.key.follower == me }.map { (blocked: $0.key.followee, at: $0.value) }
            .sorted { ($0.at, $0.blocked.lowercased) > ($1.at, $1.blocked.lowercased) }
        let after = body.flatMap { b in b.after_us.map { ($0, b.after_id?.lowercased() ?? "") } }
        let page = mine.filter { after == nil || ($0.at, $0.blocked.lowercased) < after! }.prefix(max(body?.page_size ?? 21, 0))
        return Self.json(200, BlockedProfilePageRow(total: mine.count, blocked: page.compactMap { item in
            profilesById[item.blocked].map { BlockedProfilePageRow.Entry(created_us: item.at, profile: Self.cardRow($0)) }
        }))
    }
}
