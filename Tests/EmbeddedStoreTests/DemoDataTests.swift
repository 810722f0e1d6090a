import EmbeddedStore
import Foundation
import SocialDomain
import SocialFixtures
import Testing

@Suite("Demo data and the seed generator")
struct DemoDataTests {
    @Test("first start adds alice_wonder, bob_builder and carol_creator with their bios, following each other")
    func demoUsers() async throws {
        let fixture = try await StoreFixture.make()
        let found = try await fixture.store.profiles(
            handles: ["alice_wonder", "bob_builder", "carol_creator"], viewer: .anonymous)
        #expect(found["alice_wonder"]?.id == UUID(uuidString: "a11ce000-0000-4000-8000-000000000001"))
        #expect(found["alice_wonder"]?.bio == "Adventure seeker 🌟")
        #expect(found["bob_builder"]?.bio == "Can we fix it? Yes we can! 🔨")
        #expect(found["carol_creator"]?.bio == "Artist 🎨 | Designer")
        #expect(found["carol_creator"]?.displayName == "Carol Stevens")
        for profile in found.values {
            #expect(profile.followerCount == 2 && profile.followingCount == 2)
        }
        let states = try await GetFollowStates(follows: fixture.store)
            .execute(profileIds: [DemoData.bobId, DemoData.carolId], viewer: StoreFixture.alice)
        #expect(states.allSatisfy { $0.viewerIsFollowing && $0.followsViewer })
    }

    @Test("reopening the data folder keeps the data and does not seed twice")
    func reopen() async throws {
        let fixture = try await StoreFixture.make()
        _ = try await fixture.update(DemoData.aliceId) { $0.bio = .set("Changed") }
        let again = try await EmbeddedStore.open(dataDirectory: fixture.store.dataDirectory, seedDemoData: true)
        let alice = try await again.profiles(ids: [DemoData.aliceId], viewer: .anonymous)[DemoData.aliceId]
        #expect(alice?.bio == "Changed")
        #expect(alice?.followerCount == 2)
    }

    @Test("seed generates the same profiles and follows for the same arguments, counters matching rows")
    func deterministicSeed() async throws {
        let a = try await StoreFixture.make(demo: false)
        let b = try await StoreFixture.make(demo: false)
        let first = try await a.store.seed(profiles: 500, followsPerProfile: 7)
        let second = try await b.store.seed(profiles: 500, followsPerProfile: 7)
        #expect(first == second)
        #expect(first.follows == 3500)
        let id = try #require(first.firstProfileId)
        let pa = try await a.store.profiles(ids: [id], viewer: StoreFixture.viewer(id))[id]
        let pb = try await b.store.profiles(ids: [id], viewer: StoreFixture.viewer(id))[id]
        #expect(pa == pb)
        #expect(pa?.handle == "user1" && pa?.followingCount == 7)
        #expect(try await a.store.profilesWithDriftingCounters().isEmpty)
        let page = try await a.store.followPages(
            [FollowPageRequest(list: FollowList(.following, of: id), page: PageRequest(limit: 50))],
            viewer: StoreFixture.viewer(id))
        #expect(page[0].totalCount == 7)
    }

    @Test("seeding 100,000 profiles (timing printed, run with SEED_BENCH=1)",
          .enabled(if: ProcessInfo.processInfo.environment["SEED_BENCH"] != nil))
    func seedBenchmark() async throws {
        let fixture = try await StoreFixture.make(demo: true)
        let start = Date()
        let summary = try await fixture.store.seed(profiles: 100_000, followsPerProfile: 10)
        let seconds = Date().timeIntervalSince(start)
        print("SEED_BENCH: \(summary.profiles) profiles, \(summary.follows) follows in \(String(format: "%.2f", seconds)) s")
        #expect(try await fixture.store.profilesWithDriftingCounters().isEmpty)
    }
}
