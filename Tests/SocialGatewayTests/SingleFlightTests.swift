import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import ResponseCache
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Identical misses at the same time are computed once (issue #17: the herd behind a popular key).
@Suite("Single flight: identical concurrent misses")
struct SingleFlightTests {
    let card = "query Card($h: String!) { profile(handle: $h) { handle followerCount followers(first: 2) { totalCount nodes { handle } } } }"
    /// A signed-in reader with no profile: the herd all asks as one viewer (lists need one).
    static let reader = UUID(uuidString: "5ead0000-0000-4000-8000-000000000001")!

    /// Store round trips so far: port calls on the embedded store, HTTP requests to the fake.
    func roundTrips(_ store: TestStore) -> Int {
        switch store.kind {
        case .embedded, .postgres: store.callCounts?.values.reduce(0, +) ?? 0
        case .supabase: store.fake?.requests.count ?? 0
        }
    }

    func service(_ store: TestStore) throws -> (GatewayService, ResponseCacheStore) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flight-\(UUID().uuidString)")
        let cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
        var options = GatewayOptions()
        options.cache = cache
        var stores = store.stores
        stores.profiles = HookedProfiles.slow(stores.profiles, delay: .milliseconds(300))
        return (try GatewayService(stores: stores, options: options), cache)
    }

    func concurrently(_ service: GatewayService, _ count: Int, _ request: GatewayRequest) async -> [GatewayResponse] {
        await withTaskGroup(of: GatewayResponse.self) { group in
            for _ in 0..<count { group.addTask { await service.execute(request) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("32 identical concurrent misses cost the store calls of one execution and get the same answer", arguments: StoreKind.allCases)
    func identicalMissesComputedOnce(_ kind: StoreKind) async throws {
        try await TestStore.run(kind) { store in
            let (service, _) = try service(store)
            // One execution's round trips, for a handle nobody asked yet.
            store.resetRoundTrips()
            let single = await service.execute(GatewayRequest(query: card, variables: ["h": "carol_creator"], viewer: store.viewer(Self.reader)))
            #expect(!single.hasErrors)
            let one = roundTrips(store)
            #expect(one > 0)
            store.resetRoundTrips()
            let answers = await concurrently(
                service, 32, GatewayRequest(query: card, variables: ["h": "bob_builder"], viewer: store.viewer(Self.reader)))
            #expect(roundTrips(store) == one)
            #expect(Set(answers.map(\.body)).count == 1)
            #expect(answers.allSatisfy { !$0.hasErrors })
            let json = try JSONParser.parse(answers[0].body)
            #expect(json["data"]?["profile"]?["handle"] == "bob_builder")
        }
    }

    @Test("two viewers asking the same query at once are computed apart: a flight never crosses scopes", arguments: StoreKind.allCases)
    func scopesFlyApart(_ kind: StoreKind) async throws {
        try await TestStore.run(kind) { store in
            let (service, _) = try service(store)
            let query = #"{ profile(handle: "bob_builder") { handle viewerIsFollowing } }"#
            // Everyone follows everyone in the demo data: alice unfollows bob, carol still follows.
            let bob = DemoData.bobId.uuidString.lowercased()
            _ = await service.execute(
                GatewayRequest(
                    query: "mutation T($id: ID!) { toggleFollow(profileId: $id) { following } }", variables: ["id": .string(bob)],
                    viewer: store.viewer(DemoData.aliceId)))
            async let alice = service.execute(GatewayRequest(query: query, viewer: store.viewer(DemoData.aliceId)))
            async let carol = service.execute(GatewayRequest(query: query, viewer: store.viewer(DemoData.carolId)))
            async let anonymous = service.execute(GatewayRequest(query: query))
            let answers = try await [alice, carol, anonymous].map { try JSONParser.parse($0.body)["data"]?["profile"]?["viewerIsFollowing"] }
            #expect(answers == [false, true, false])
        }
    }

    @Test("a request arriving after a write does not join a computation begun before it", arguments: StoreKind.allCases)
    func noJoinAcrossAWrite(_ kind: StoreKind) async throws {
        try await TestStore.run(kind) { store in
            let (service, _) = try service(store)
            let request = GatewayRequest(query: card, variables: ["h": "bob_builder"], viewer: store.viewer(Self.reader))
            // A slow read of bob's card begins; alice unfollows bob while it runs; a read that
            // starts after her answer must show the new count, not share the first read's.
            async let early = service.execute(request)
            try await Task.sleep(for: .milliseconds(50))
            let bob = DemoData.bobId.uuidString.lowercased()
            let toggle = await service.execute(
                GatewayRequest(
                    query: "mutation T($id: ID!) { toggleFollow(profileId: $id) { following profile { followerCount } } }",
                    variables: ["id": .string(bob)], viewer: store.viewer(DemoData.aliceId)))
            let count = try JSONParser.parse(toggle.body)["data"]?["toggleFollow"]?["profile"]?["followerCount"]
            #expect(count == 1)
            let late = try JSONParser.parse(await service.execute(request).body)
            #expect(late["data"]?["profile"]?["followerCount"] == count)
            _ = await early
        }
    }
}
