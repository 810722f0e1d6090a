import Foundation
import GatewayTestSupport
import GraphQLEngine
import GraphQLLanguage
import ResponseCache
import SocialDomain
import SocialFixtures
@testable import SocialGateway
import Testing

/// Profile cards shared by the signed-in viewers with the same relation to the profile (issue
/// 41), on every store: the private rule, blocks and read-your-writes hold through the shared
/// answers. Stores with a ``SocialDomain/ViewerRelationStore`` (embedded, PostgreSQL) share;
/// the Supabase store keeps every signed-in answer per viewer, and must answer the same.
@Suite("Shared profile cards")
struct SharedCardTests {
    static let bob = DemoData.bobId.uuidString.lowercased()
    static let carolID = DemoData.carolId.uuidString.lowercased()
    /// `examples/profile-card.graphql`.
    static let card = """
        query ProfileCard($handle: String!, $first: Int = 10) {
          profile(handle: $handle) {
            id handle displayName bio avatarURL
            followerCount followingCount
            viewerIsFollowing followsViewer
            followers(first: $first) {
              totalCount
              edges { cursor followedAt node { id handle displayName } }
              pageInfo { hasNextPage endCursor }
            }
          }
        }
        """

    static func bobsCard(_ gateway: GatewayFixture, _ viewer: Viewer) async throws -> JSONValue {
        let answer = try await gateway.run(card, ["handle": "bob_builder"], viewer: viewer)
        #expect(answer.json["errors"] == nil)
        return answer.json["data"]?["profile"] ?? .null
    }

    static func followerHandles(_ card: JSONValue) -> Set<String> {
        Set(card["followers"]?["edges"]?.arrayValue?.compactMap { $0["node"]?["handle"]?.stringValue } ?? [])
    }

    /// Whether the store can tell a viewer's relation to a profile (``ViewerRelationStore``), which
    /// shared cards need: the Supabase store has no such read yet.
    static func sharesCards(_ gateway: GatewayFixture) -> Bool { gateway.store.stores.relations != nil }

    /// A gateway with the response cache on, and graph memory when `memory` (then a card is keyed
    /// by what its viewer sees of it, read from memory: ``GatewayService``'s audience cards).
    static func withCards(_ kind: StoreKind, memory: Bool, _ body: (GatewayFixture, ResponseCacheStore) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
        var options = GatewayOptions()
        options.cache = cache
        if memory { options.graphMemory = GraphMemory.Limits() }
        try await GatewayFixture.run(kind, options: options) { gateway in try await body(gateway, cache) }
    }

    /// The cache's hits once a computed answer has landed (it is kept in memory as it is computed;
    /// the wait only covers the background task's start).
    static func landed() async { try? await Task.sleep(nanoseconds: 50_000_000) }

    @Test("two viewers with the same relation get the same card; the second is a hit after one relation read",
          arguments: StoreKind.allCases, [false, true])
    func sameRelationShares(_ kind: StoreKind, memory: Bool) async throws {
        try await Self.withCards(kind, memory: memory) { gateway, cache in
            // alice and carol both follow bob, and bob follows both.
            let alice = try await Self.bobsCard(gateway, gateway.alice)
            #expect(alice["viewerIsFollowing"] == true)
            #expect(alice["followsViewer"] == true)
            #expect(Self.followerHandles(alice) == ["alice_wonder", "carol_creator"])
            await Self.landed()
            let hits = cache.counters.hits
            gateway.store.resetRoundTrips()
            let carol = try await Self.bobsCard(gateway, gateway.carol)
            #expect(carol == alice)
            if Self.sharesCards(gateway) {
                #expect(cache.counters.hits == hits + 1)
            } else {
                #expect(cache.counters.hits == hits)
            }
            // Without memory, one relation read; with it, none once the viewer's facts are kept.
            if kind == .embedded, !memory { #expect(gateway.store.callCounts == ["viewerRelation": 1]) }
            // bob's own card is his alone (his owner view), never the shared one.
            let own = try await Self.bobsCard(gateway, gateway.bob)
            #expect(own["viewerIsFollowing"] == false)
            #expect(own["followsViewer"] == false)
        }
    }

    @Test("a private profile through the shared cards: its approved follower sees its followers, a stranger only its card",
          arguments: StoreKind.allCases, [false, true])
    func privateRule(_ kind: StoreKind, memory: Bool) async throws {
        try await Self.withCards(kind, memory: memory) { gateway, cache in
            try await FollowRequestTests.strangers(gateway)
            for round in 0..<2 {
                let follower = try await Self.bobsCard(gateway, gateway.carol)
                #expect(follower["bio"] == .string(DemoData.users[1].bio), "round \(round)")
                #expect(Self.followerHandles(follower) == ["carol_creator"], "round \(round)")
                #expect(follower["viewerIsFollowing"] == true)
                await Self.landed()
                let stranger = try await Self.bobsCard(gateway, gateway.alice)
                #expect(stranger["bio"] == .null, "round \(round)")
                #expect(stranger["followers"]?["totalCount"] == 0)   // a card's lists are empty and counted 0 (issue 52)
                #expect(stranger["followers"]?["edges"] == [], "round \(round)")
                #expect(stranger["viewerIsFollowing"] == false)
                await Self.landed()
                let anonymous = try await gateway.run(Self.card, ["handle": "bob_builder"])
                #expect(anonymous.json["data"]?["profile"] == .null)
            }
            // The second round was answered from the cache: each relation has its own answer.
            if Self.sharesCards(gateway) { #expect(cache.counters.hits >= 2) }
        }
    }

    @Test("a private listed profile reaches only the viewers who see it: its own card's answer never reaches another viewer",
          arguments: StoreKind.allCases, [false, true])
    func privateListedProfile(_ kind: StoreKind, memory: Bool) async throws {
        try await Self.withCards(kind, memory: memory) { gateway, _ in
            let goPrivate = try await gateway.run(
                "mutation { updateProfile(input: { isPublic: false }) { profile { isPublic } } }", viewer: gateway.carol)
            #expect(goPrivate.json["errors"] == nil)
            // bob and carol have the same relation to alice (each follows her, she follows each);
            // carol is private: alice's followers show her to herself and to bob while he follows her.
            func alicesCard(_ viewer: Viewer) async throws -> JSONValue {
                let answer = try await gateway.run(Self.card, ["handle": "alice_wonder"], viewer: viewer)
                #expect(answer.json["errors"] == nil)
                return answer.json["data"]?["profile"] ?? .null
            }
            #expect(Self.followerHandles(try await alicesCard(gateway.carol)) == ["bob_builder", "carol_creator"])
            await Self.landed()
            #expect(Self.followerHandles(try await alicesCard(gateway.bob)) == ["bob_builder", "carol_creator"])
            _ = try await gateway.run(FollowRequestTests.unfollow, ["id": .string(Self.carolID)], viewer: gateway.bob)
            for _ in 0..<2 {
                #expect(Self.followerHandles(try await alicesCard(gateway.carol)) == ["bob_builder", "carol_creator"])
                await Self.landed()
                let bobsView = try await alicesCard(gateway.bob)
                #expect(Self.followerHandles(bobsView) == ["bob_builder"])
                #expect(bobsView["followers"]?["totalCount"] == 2)
                await Self.landed()
            }
        }
    }

    @Test("blocks hide through the shared cards: a blocked follower leaves the lists of both, a blocked profile is null",
          arguments: StoreKind.allCases, [false, true])
    func blocksHide(_ kind: StoreKind, memory: Bool) async throws {
        try await Self.withCards(kind, memory: memory) { gateway, _ in
            let shared = try await Self.bobsCard(gateway, gateway.alice)
            #expect(Self.followerHandles(shared) == ["alice_wonder", "carol_creator"])
            await Self.landed()
            #expect(try await Self.bobsCard(gateway, gateway.carol) == shared)
            let blocked = try await gateway.run(BlockTests.block, ["id": .string(Self.carolID)], viewer: gateway.alice)
            #expect(blocked.json["errors"] == nil)
            let aliceView = try await Self.bobsCard(gateway, gateway.alice)
            #expect(Self.followerHandles(aliceView) == ["alice_wonder"])
            #expect(aliceView["viewerIsFollowing"] == true)
            let carolView = try await Self.bobsCard(gateway, gateway.carol)
            #expect(Self.followerHandles(carolView) == ["carol_creator"])
            _ = try await gateway.run(BlockTests.block, ["id": .string(Self.bob)], viewer: gateway.alice)
            let hidden = try await gateway.run(Self.card, ["handle": "bob_builder"], viewer: gateway.alice)
            #expect(hidden.json["data"]?["profile"] == .null)
            #expect(Self.followerHandles(try await Self.bobsCard(gateway, gateway.carol)) == ["carol_creator"])
        }
    }

    @Test("read-your-writes through the shared cards: toggleFollow and updateProfile show at once to the writer and to others",
          arguments: StoreKind.allCases, [false, true])
    func readYourWrites(_ kind: StoreKind, memory: Bool) async throws {
        try await Self.withCards(kind, memory: memory) { gateway, _ in
            let before = try await Self.bobsCard(gateway, gateway.alice)
            #expect(before["followerCount"] == 2)
            await Self.landed()
            #expect(try await Self.bobsCard(gateway, gateway.carol) == before)
            await Self.landed()
            let toggled = try await gateway.run(
                "mutation T($id: ID!) { toggleFollow(profileId: $id) { following } }", ["id": .string(Self.bob)], viewer: gateway.alice)
            #expect(toggled.json["data"]?["toggleFollow"]?["following"] == false)
            let writer = try await Self.bobsCard(gateway, gateway.alice)
            #expect(writer["viewerIsFollowing"] == false)
            #expect(writer["followerCount"] == 1)
            #expect(Self.followerHandles(writer) == ["carol_creator"])
            let other = try await Self.bobsCard(gateway, gateway.carol)
            #expect(other["viewerIsFollowing"] == true)
            #expect(other["followerCount"] == 1)
            #expect(Self.followerHandles(other) == ["carol_creator"])
            await Self.landed()
            let updated = try await gateway.run(
                #"mutation { updateProfile(input: { bio: "Shared, then changed" }) { profile { bio } } }"#, viewer: gateway.bob)
            #expect(updated.json["errors"] == nil)
            for viewer in [gateway.alice, gateway.carol, gateway.bob] {
                #expect(try await Self.bobsCard(gateway, viewer)["bio"] == "Shared, then changed")
            }
            // Following again: the writer's next card shows it, whoever computed the shared one.
            _ = try await gateway.run(
                "mutation T($id: ID!) { toggleFollow(profileId: $id) { following } }", ["id": .string(Self.bob)], viewer: gateway.alice)
            let again = try await Self.bobsCard(gateway, gateway.alice)
            #expect(again["viewerIsFollowing"] == true)
            #expect(again["followerCount"] == 2)
            #expect(again == (try await Self.bobsCard(gateway, gateway.carol)))
        }
    }

    @Test("only a card's shape is shared: a listed profile's details, a request status, a second root field or a fragment are not")
    func shapes() throws {
        func shape(_ text: String) throws -> SharedCardShape? {
            let document = try Document(parsing: Source(text))
            return SharedCardShape.of(document.operations[0])
        }
        #expect(try shape(Self.card) == SharedCardShape(isHandle: true, source: .variable("handle"), lists: [
            .init(kind: .followers, first: .variable("first", defaultValue: .int(10)), after: nil, last: nil, before: nil)
        ]))
        #expect(try shape(#"{ profile(id: "b0b00000-0000-4000-8000-000000000002") { handle bio } }"#)
            == SharedCardShape(isHandle: false, source: .literal("b0b00000-0000-4000-8000-000000000002"), lists: []))
        // Each page's Relay arguments, as written: what graph memory reads the viewer's page with.
        #expect(try shape(#"query Q($c: String) { profile(handle: "bob") { following(last: 3, before: $c) { totalCount } } }"#)?.lists
            == [.init(kind: .following, first: nil, after: nil, last: .literal(.int(3)), before: .variable("c", defaultValue: nil))])
        #expect(try shape(#"{ profile(handle: "bob") { followers(first: 2.5) { totalCount } } }"#) == nil)
        #expect(try shape(#"{ profile(handle: "bob") { followers { edges { node { bio } } } } }"#) == nil)
        #expect(try shape(#"{ profile(handle: "bob") { viewerFollowRequestStatus } }"#) == nil)
        #expect(try shape(#"{ profile(handle: "bob") { viewerCanSeeDetails } }"#) == nil)
        #expect(try shape(#"{ profile(handle: "bob") { handle } viewer { handle } }"#) == nil)
        #expect(try shape(#"{ profile(handle: "bob") { ...F } } fragment F on Profile { handle }"#) == nil)
        #expect(try shape(#"query Q($s: Boolean!) { profile(handle: "bob") { handle @include(if: $s) } }"#) == nil)
        #expect(try shape(#"{ profile(handle: "bob") { followers { edges { node { followers { totalCount } } } } } }"#) == nil)
        #expect(try shape(#"{ profile(handle: "bob") { posts(first: 3) { totalCount } } }"#) == nil)
    }
}
