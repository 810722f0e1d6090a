import EmbeddedStore
import Foundation
import SocialDomain
import SocialFixtures
import Testing

@Suite("Embedded follow pages: keyset cursors and batching")
struct FollowPageTests {
    /// A store where `count` new profiles follow `owner`, one per clock second (oldest first).
    func followers(of owner: UUID, count: Int, prefix: String, in f: StoreFixture) async throws -> [UUID] {
        var ids: [UUID] = []
        for i in 0..<count {
            let id = try await f.create("\(prefix)\(i)")
            f.clock.advance(by: 1)
            _ = try await FollowProfile(follows: f.store).execute(profileId: owner, viewer: StoreFixture.viewer(id))
            ids.append(id)
        }
        return ids
    }

    @Test("each row's relation to the viewer is the same read from the viewer's follows (a large page) or probed per row (small pages)")
    func viewerRelationsBothWays() async throws {
        let f = try await StoreFixture.make(demo: false)
        let owner = try await f.create("owner_rita")
        let viewerId = try await f.create("viewer_vic")
        let viewer = StoreFixture.viewer(viewerId)
        let fans = try await followers(of: owner, count: 12, prefix: "fan", in: f)
        let follow = FollowProfile(follows: f.store)
        // The viewer follows fans 0-5 (fan 5 then unfollowed) and 6 others; fans 3-8 follow the
        // viewer: 11 + 6 rows of the viewer's own follows.
        for fan in fans[0..<6] { _ = try await follow.execute(profileId: fan, viewer: viewer) }
        _ = try await UnfollowProfile(follows: f.store).execute(profileId: fans[5], viewer: viewer)
        for i in 0..<6 { _ = try await follow.execute(profileId: try await f.create("other\(i)"), viewer: viewer) }
        for fan in fans[3..<9] { _ = try await follow.execute(profileId: viewerId, viewer: StoreFixture.viewer(fan)) }
        let expected = Dictionary(uniqueKeysWithValues: fans.enumerated().map { i, fan in
            (fan, FollowState(profileId: fan, viewerIsFollowing: i < 5, followsViewer: (3..<9).contains(i)))
        })

        // A page of up to 20 reads the owner's 12 follows, so up to 24 probes: the viewer's 17
        // rows are read instead (the counters, the viewer's two lists, the page).
        f.store.resetCounters()
        let whole = try await f.store.followPages(
            [FollowPageRequest(list: FollowList(.followers, of: owner), page: PageRequest(limit: 20))], viewer: viewer)[0]
        #expect(f.store.sqlStatementCount == 4)
        #expect(whole.edges.count == 12)
        for edge in whole.edges { #expect(edge.viewerState == expected[edge.profile.id]) }
        // Pages of 2 (3 rows, 6 probes) probe each row (the counters, the page).
        let get = FollowersList(follows: f.store)
        var after: String?
        var seen = 0
        repeat {
            f.store.resetCounters()
            let page = try await get.execute(profileId: owner, first: 2, after: after, viewer: viewer)
            #expect(f.store.callCounts["followPages"] == 1 && f.store.sqlStatementCount <= 3)
            for edge in page.edges { #expect(edge.viewerState == expected[edge.profile.id]) }
            seen += page.edges.count
            after = page.hasNextPage ? page.endCursor : nil
        } while after != nil
        #expect(seen == 12)
    }

    @Test("keyset pages stay correct while follows are inserted between page requests")
    func pagesWhileInserting() async throws {
        let f = try await StoreFixture.make(demo: false)
        let owner = try await f.create("owner_olga")
        let original = try await followers(of: owner, count: 25, prefix: "fan", in: f)
        let newestFirst = Array(original.reversed())
        let get = FollowersList(follows: f.store)

        let page1 = try await get.execute(profileId: owner, first: 10, viewer: StoreFixture.reader)
        #expect(page1.edges.map(\.profile.id) == Array(newestFirst[0..<10]))
        #expect(page1.hasNextPage && !page1.hasPreviousPage && page1.totalCount == 25)

        let late = try await followers(of: owner, count: 5, prefix: "late", in: f)
        let page2 = try await get.execute(profileId: owner, first: 10, after: page1.endCursor, viewer: StoreFixture.reader)
        #expect(page2.edges.map(\.profile.id) == Array(newestFirst[10..<20]))
        #expect(page2.hasPreviousPage && page2.totalCount == 30)

        let page3 = try await get.execute(profileId: owner, first: 10, after: page2.endCursor, viewer: StoreFixture.reader)
        #expect(page3.edges.map(\.profile.id) == Array(newestFirst[20..<25]))
        #expect(!page3.hasNextPage)

        let back = try await get.execute(profileId: owner, last: 10, before: page2.startCursor, viewer: StoreFixture.reader)
        #expect(back.edges.map(\.profile.id) == Array(newestFirst[0..<10]))
        #expect(back.hasPreviousPage && back.hasNextPage)
        let top = try await get.execute(profileId: owner, last: 10, before: back.startCursor, viewer: StoreFixture.reader)
        #expect(top.edges.map(\.profile.id) == Array(late.reversed()))
        #expect(!top.hasPreviousPage)
    }

    @Test("follows created in the same microsecond are ordered by id, with no row skipped or repeated")
    func tiesOnCreatedAt() async throws {
        let f = try await StoreFixture.make(demo: false)
        let owner = try await f.create("owner_tie")
        var fans: [UUID] = []
        for i in 0..<7 { fans.append(try await f.create("tie\(i)")) }
        f.clock.set(StoreFixture.t0.addingTimeInterval(10_000))   // every follow at the same instant
        for fan in fans { _ = try await FollowProfile(follows: f.store).execute(profileId: owner, viewer: StoreFixture.viewer(fan)) }
        let get = FollowersList(follows: f.store)
        var seen: [FollowEdge] = []
        var after: String?
        repeat {
            let page = try await get.execute(profileId: owner, first: 3, after: after, viewer: StoreFixture.reader)
            seen += page.edges
            after = page.hasNextPage ? page.endCursor : nil
        } while after != nil
        #expect(Set(seen.map(\.profile.id)) == Set(fans) && seen.count == 7)
        #expect(seen.map(\.follow.id.uuidString) == seen.map(\.follow.id.uuidString).sorted(by: >))
    }

    @Test("another profile's cursor is BAD_USER_INPUT")
    func foreignCursor() async throws {
        let f = try await StoreFixture.make()
        let get = FollowersList(follows: f.store)
        let bobs = try await get.execute(profileId: DemoData.bobId, first: 1, viewer: StoreFixture.reader)
        let error = await domainError { _ = try await get.execute(profileId: DemoData.aliceId, after: bobs.endCursor, viewer: StoreFixture.reader) }
        #expect(error == DomainError(.badUserInput, "after is not a valid cursor for this list", field: "after"))
    }

    @Test("a private follower is left out of others' pages but the count still includes it")
    func hiddenFollower() async throws {
        let f = try await StoreFixture.make()
        let secret = try await f.create("secret_sam", isPublic: false)
        _ = try await FollowProfile(follows: f.store).execute(profileId: DemoData.aliceId, viewer: StoreFixture.viewer(secret))
        let get = FollowersList(follows: f.store)
        let asBob = try await get.execute(profileId: DemoData.aliceId, viewer: StoreFixture.bob)
        #expect(asBob.edges.map(\.profile.handle) == ["carol_creator", "bob_builder"])
        #expect(asBob.totalCount == 3)
        let asSam = try await get.execute(profileId: DemoData.aliceId, viewer: StoreFixture.viewer(secret))
        #expect(asSam.edges.first?.profile.handle == "secret_sam")
    }

    @Test("first pages of followers for 50 profiles are one store call: a statement per list the viewer may read, one for the counters, two for the viewer's follows")
    func batchedFirstPages() async throws {
        let f = try await StoreFixture.make(demo: false)
        try await f.store.seed(profiles: 300, followsPerProfile: 8)
        let random = SeededRandom(seed: 0x5EED)
        let ids = (0..<50).map { _ in random.uuid() }
        let viewer = StoreFixture.viewer(ids[0])
        let requests = ids.enumerated().map { i, id in
            FollowPageRequest(list: FollowList(i % 2 == 0 ? .followers : .following, of: id), page: PageRequest(limit: 5))
        }
        // Every fifth profile of the load-test graph is private: the viewer sees most of those
        // only as cards, whose lists are empty and counted 0 without a walk (issue 52).
        let profiles = try await f.store.profiles(ids: ids, viewer: viewer)
        let whole = Set(profiles.values.filter { $0.access == .full }.map(\.id))
        #expect(whole.count < 50 && whole.count > 30)
        f.store.resetCounters()
        let pages = try await f.store.followPages(requests, viewer: viewer)
        #expect(f.store.callCounts == ["followPages": 1])
        #expect(f.store.sqlStatementCount == 3 + whole.count)
        #expect(pages.count == 50)
        for (request, page) in zip(requests, pages) {
            #expect(page.list == request.list)
            let alone = try await f.store.followPages([request], viewer: viewer)[0]
            #expect(alone == page)
            #expect(page.edges.count <= 5)
            guard whole.contains(request.list.owner) else {
                #expect(page.edges.isEmpty && page.totalCount == 0)
                continue
            }
            if request.list.kind == .following { #expect(page.totalCount == 8) }
            if request.list.kind == .followers { #expect(page.totalCount == profiles[request.list.owner]?.followerCount) }
        }
    }

    @Test("follow states for many pairs are two statements (whom the viewer follows, who follows the viewer); profiles for many ids one")
    func batchedStatesAndProfiles() async throws {
        let f = try await StoreFixture.make()
        f.store.resetCounters()
        let states = try await GetFollowStates(follows: f.store)
            .execute(profileIds: [DemoData.bobId, DemoData.carolId, UUID()], viewer: StoreFixture.alice)
        #expect(states.map(\.viewerIsFollowing) == [true, true, false])
        _ = try await BatchGetProfiles(profiles: f.store).execute(ids: [DemoData.bobId, DemoData.carolId, DemoData.aliceId], viewer: .anonymous)
        #expect(f.store.callCounts == ["activeFollows": 1, "profilesByID": 1])
        #expect(f.store.sqlStatementCount == 3)
    }

    @Test("a signed-in viewer's pages carry its follow state toward each listed profile; an anonymous viewer's carry none")
    func pagesCarryStates() async throws {
        let f = try await StoreFixture.make()
        // carol stops following alice: alice still follows carol, carol no longer follows back.
        _ = try await f.store.changeFollow(FollowChange(pair: FollowPair(follower: DemoData.carolId, followee: DemoData.aliceId), action: .unfollow),
                                           viewer: StoreFixture.viewer(DemoData.carolId))
        f.store.resetCounters()
        let request = FollowPageRequest(list: FollowList(.followers, of: DemoData.bobId))
        let page = try #require(try await f.store.followPages([request], viewer: StoreFixture.alice).first)
        let states = Dictionary(uniqueKeysWithValues: page.edges.map { ($0.profile.id, $0.viewerState) })
        #expect(states[DemoData.carolId] == FollowState(profileId: DemoData.carolId, viewerIsFollowing: true, followsViewer: false))
        #expect(states[DemoData.aliceId] == FollowState(profileId: DemoData.aliceId, viewerIsFollowing: false, followsViewer: false))
        #expect(f.store.callCounts == ["followPages": 1])
        let anonymous = try #require(try await f.store.followPages([request], viewer: .anonymous).first)
        #expect(anonymous.edges.count == 2 && anonymous.edges.allSatisfy { $0.viewerState == nil })
    }
}

/// One profile's followers read as the gateway reads them (the arguments checked by
/// ``GetFollowPages/request(_:of:first:after:last:before:viewer:)``, then one store call).
struct FollowersList {
    let follows: any FollowStore

    func execute(
        profileId: UUID, first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil, viewer: Viewer
    ) async throws -> FollowPage {
        let request = try GetFollowPages.request(
            .followers, of: profileId, first: first, after: after, last: last, before: before, viewer: viewer)
        return try await GetFollowPages(follows: follows).execute([request], viewer: viewer)[0]
    }
}
