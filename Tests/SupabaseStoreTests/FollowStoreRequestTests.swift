import Foundation
import SocialDomain
import SupabaseFake
import Testing
@testable import SupabaseStore

@Suite("SupabaseStore follows on the wire",
      .enabled(if: StoreHarness.available, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
struct FollowStoreRequestTests {
    static let t0: Int64 = 1_740_912_672_345_678

    @Test("followPages answers many lists with ONE rpc/follow_pages_with_states request, pages in request order")
    func followPagesBatched() async throws {
        try await StoreHarness.run { h in
            try await h.fake.addFollow(StoreHarness.bob, StoreHarness.alice, createdAtMicroseconds: Self.t0)
            try await h.fake.addFollow(StoreHarness.carol, StoreHarness.alice, createdAtMicroseconds: Self.t0 + 1)   // private: omitted
            try await h.fake.addFollow(StoreHarness.alice, StoreHarness.bob, createdAtMicroseconds: Self.t0 + 2)
            let requests = [
                FollowPageRequest(list: FollowList(.followers, of: StoreHarness.alice), page: PageRequest(limit: 5)),
                FollowPageRequest(list: FollowList(.following, of: StoreHarness.alice), page: PageRequest(limit: 1)),
                FollowPageRequest(list: FollowList(.followers, of: StoreHarness.carol)),
            ]
            let pages = try await h.store.followPages(requests, viewer: h.asStranger)
            // a stranger follows none of them, and none follows the stranger
            #expect(pages.allSatisfy { $0.edges.allSatisfy {
                $0.viewerState == FollowState(profileId: $0.profile.id, viewerIsFollowing: false, followsViewer: false)
            } })
            #expect(pages.map(\.list) == requests.map(\.list))
            #expect(pages[0].edges.map(\.profile.id) == [StoreHarness.bob])
            #expect(pages[0].totalCount == 2)   // the stored counter counts carol's follow too
            #expect(pages[0].edges.first?.follow.createdAtMicroseconds == Self.t0)
            #expect(pages[1].edges.map(\.profile.id) == [StoreHarness.bob])
            #expect(pages[2].edges.isEmpty && pages[2].totalCount == 0)
            #expect(h.fake.requests.count == 1)
            let request = h.fake.requests[0]
            #expect(request.method == "POST" && request.path == "/rest/v1/rpc/follow_pages_with_states" && request.query == "")
            #expect(request.bodyText == #"{"requests":["#
                + #"{"backward":false,"kind":"followers","limit":5,"owner":"a11ce000-0000-4000-8000-000000000001"},"#
                + #"{"backward":false,"kind":"following","limit":1,"owner":"a11ce000-0000-4000-8000-000000000001"},"#
                + #"{"backward":false,"kind":"followers","limit":20,"owner":"ca201000-0000-4000-8000-000000000003"}]}"#)
        }
    }

    @Test("a signed-in caller's pages carry its follow state toward each listed profile, in the same request")
    func followPagesCarryStates() async throws {
        try await StoreHarness.run { h in
            try await h.fake.addFollow(StoreHarness.bob, StoreHarness.alice, createdAtMicroseconds: Self.t0)
            try await h.fake.addFollow(StoreHarness.alice, StoreHarness.bob, createdAtMicroseconds: Self.t0 + 1)
            let dave = UUID(uuidString: "d0000000-0000-4000-8000-000000000004")!
            try await h.fake.addProfile(Profile(id: dave, handle: "dave_dyno", createdAt: StoreHarness.created, updatedAt: StoreHarness.created))
            try await h.fake.addFollow(dave, StoreHarness.bob, createdAtMicroseconds: Self.t0 + 2)
            try await h.fake.addFollow(dave, StoreHarness.alice, createdAtMicroseconds: Self.t0 + 3)
            let pages = try await h.store.followPages(
                [FollowPageRequest(list: FollowList(.followers, of: StoreHarness.bob))], viewer: h.asAlice)
            let states = Dictionary(uniqueKeysWithValues: pages[0].edges.map { ($0.profile.id, $0.viewerState) })
            // alice herself, and dave, who follows alice but whom alice does not follow.
            #expect(states[StoreHarness.alice] == FollowState(profileId: StoreHarness.alice, viewerIsFollowing: false, followsViewer: false))
            #expect(states[dave] == FollowState(profileId: dave, viewerIsFollowing: false, followsViewer: true))
            #expect(h.fake.requests.map(\.endpoint) == ["POST /rest/v1/rpc/follow_pages_with_states"])
        }
    }

    @Test("followPages stays under PostgREST's 1000-row cap: 24 pages of 50 go in 2 requests and none is cut short")
    func followPagesUnderRowCap() async throws {
        try await StoreHarness.run { h in
            try await h.fake.seed(profiles: 120, followsPerProfile: 60)
            let owners = try await h.store.profiles(handles: (1...30).map { "user\($0)" }, viewer: .anonymous)
            let requests = owners.values.sorted { $0.handle < $1.handle }
                .map { FollowPageRequest(list: FollowList(.following, of: $0.id), page: PageRequest(limit: 50)) }
            #expect(requests.count == 24)   // every 5th is private
            let oneByOne = try await requests.asyncMap { try await h.store.followPages([$0], viewer: h.asStranger)[0] }
            h.fake.clearRequests()
            let batched = try await h.store.followPages(requests, viewer: h.asStranger)
            #expect(batched == oneByOne)
            #expect(batched.allSatisfy { $0.edges.count > 40 })
            // 24 pages of up to 51 rows: 1,224 rows asked for, so two requests of at most 1,000.
            let bodies = h.fake.requests.map { (try? JSONSerialization.jsonObject(with: $0.body)) as? [String: [[String: Any]]] ?? [:] }
            let asked = bodies.map { ($0["requests"] ?? []).reduce(0) { $0 + (($1["limit"] as? Int) ?? 0) + 1 } }
            #expect(asked.count == 2 && asked.allSatisfy { $0 <= SupabaseFake.maxRows } && asked.reduce(0, +) == 24 * 51)
        }
    }

    @Test("a keyset cursor travels as exact microseconds and the follow id; pages neither skip nor repeat")
    func keysetPaging() async throws {
        try await StoreHarness.run { h in
            let dave = UUID(uuidString: "d0000000-0000-4000-8000-000000000004")!
            try await h.fake.addProfile(Profile(id: dave, handle: "dave_dyno", createdAt: StoreHarness.created, updatedAt: StoreHarness.created))
            // two follows in the same microsecond: the id breaks the tie
            try await h.fake.addFollow(StoreHarness.bob, StoreHarness.alice, createdAtMicroseconds: Self.t0,
                             id: UUID(uuidString: "00000000-0000-4000-8000-00000000000a")!)
            try await h.fake.addFollow(dave, StoreHarness.alice, createdAtMicroseconds: Self.t0,
                             id: UUID(uuidString: "00000000-0000-4000-8000-00000000000b")!)
            let list = FollowList(.followers, of: StoreHarness.alice)
            let first = try await h.store.followPages([FollowPageRequest(list: list, page: PageRequest(limit: 1))], viewer: h.asStranger)[0]
            #expect(first.edges.map(\.profile.id) == [dave] && first.hasNextPage)
            let page = try PageRequest.validate(first: 1, after: first.endCursor, last: nil, before: nil, list: list)
            let second = try await h.store.followPages([FollowPageRequest(list: list, page: page)], viewer: h.asStranger)[0]
            #expect(second.edges.map(\.profile.id) == [StoreHarness.bob])
            #expect(!second.hasNextPage && second.hasPreviousPage)
            #expect(h.fake.requests[1].bodyText == #"{"requests":[{"backward":false,"cursor_id":"00000000-0000-4000-8000-00000000000b","#
                + #""cursor_us":1740912672345678,"kind":"followers","limit":1,"owner":"a11ce000-0000-4000-8000-000000000001"}]}"#)
        }
    }

    @Test("activeFollows asks all pairs in one rpc/active_follows request")
    func activeFollowsBatched() async throws {
        try await StoreHarness.run { h in
            try await h.fake.addFollow(StoreHarness.alice, StoreHarness.bob, createdAtMicroseconds: Self.t0)
            let pairs = [FollowPair(follower: StoreHarness.alice, followee: StoreHarness.bob),
                         FollowPair(follower: StoreHarness.bob, followee: StoreHarness.alice)]
            let active = try await h.store.activeFollows(among: pairs, viewer: h.asAlice)
            #expect(active == [pairs[0]])
            #expect(h.fake.requests.count == 1)
            #expect(h.fake.requests[0].path == "/rest/v1/rpc/active_follows")
            #expect(h.fake.requests[0].bodyText == #"{"pairs":[{"followee_id":"b0b00000-0000-4000-8000-000000000002","#
                + #""follower_id":"a11ce000-0000-4000-8000-000000000001"},{"followee_id":"a11ce000-0000-4000-8000-000000000001","#
                + #""follower_id":"b0b00000-0000-4000-8000-000000000002"}]}"#)
        }
    }

    @Test("toggle, follow and unfollow each call one function and return the state with fresh counters")
    func followMutations() async throws {
        try await StoreHarness.run { h in
            let pair = FollowPair(follower: StoreHarness.alice, followee: StoreHarness.bob)
            let toggled = try await h.store.changeFollow(FollowChange(pair: pair, action: .toggle), viewer: h.asAlice)
            #expect(toggled.isFollowing)
            #expect(toggled.followee?.followerCount == 1 && toggled.follower?.followingCount == 1)
            let again = try await h.store.changeFollow(FollowChange(pair: pair, action: .follow), viewer: h.asAlice)
            #expect(again.isFollowing && again.followee?.followerCount == 1)
            let gone = try await h.store.changeFollow(FollowChange(pair: pair, action: .unfollow), viewer: h.asAlice)
            #expect(!gone.isFollowing && gone.followee?.followerCount == 0)
            #expect(h.fake.requests.map(\.path) == ["/rest/v1/rpc/toggle_follow", "/rest/v1/rpc/follow_profile", "/rest/v1/rpc/unfollow_profile"])
            #expect(h.fake.requests[0].bodyText == #"{"target":"b0b00000-0000-4000-8000-000000000002"}"#)
        }
    }

    @Test("following a private profile asks (request_status pending, her card); a missing one is NOT_FOUND; self is CANNOT_FOLLOW_SELF; for another is FORBIDDEN")
    func followErrors() async throws {
        try await StoreHarness.run { h in
            let asked = try await h.store.changeFollow(
                FollowChange(pair: FollowPair(follower: StoreHarness.alice, followee: StoreHarness.carol), action: .follow), viewer: h.asAlice)
            #expect(!asked.isFollowing && asked.requestStatus == .pending && asked.followee?.access == .card)
            let hidden = await StoreHarness.domainError {
                _ = try await h.store.changeFollow(
                    FollowChange(pair: FollowPair(follower: StoreHarness.alice, followee: UUID()), action: .follow), viewer: h.asAlice)
            }
            #expect(hidden == DomainError.profileNotFound)
            #expect(hidden?.message == "Profile not found")
            let onBehalf = await StoreHarness.domainError {
                _ = try await h.store.changeFollow(
                    FollowChange(pair: FollowPair(follower: StoreHarness.bob, followee: StoreHarness.alice), action: .follow), viewer: h.asAlice)
            }
            #expect(onBehalf == DomainError.notAuthorized)
            #expect(h.fake.requests.count == 2)   // the request and the missing profile; the on-behalf attempt never left the gateway
            // the function's own answer to a self-follow (PT400, hint cannot_follow_self)
            h.fake.inject(.status(400, #"{"code":"PT400","details":null,"hint":"cannot_follow_self","message":"You cannot follow yourself"}"#))
            let selfFollow = await StoreHarness.domainError {
                _ = try await h.store.changeFollow(
                    FollowChange(pair: FollowPair(follower: StoreHarness.alice, followee: StoreHarness.bob), action: .toggle), viewer: h.asAlice)
            }
            #expect(selfFollow == DomainError.cannotFollowSelf)
        }
    }
}

extension Array {
    /// `map` with an async transform, one element at a time.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
