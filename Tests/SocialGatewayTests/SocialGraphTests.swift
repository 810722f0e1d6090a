import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// What the load-test graph says two-hop answers must be, computed here from its pairs (not
/// through any store), for comparing each store's answer against.
struct GraphOracle {
    let graph: LoadTestGraph

    func id(_ index: Int) -> String { graph.profileIds[index].lowercased() }
    func isPublic(_ index: Int) -> Bool { graph.profile(at: index).isPublic }
    func following(_ index: Int) -> Set<Int> { Set(graph.pairs.filter { $0.follower == index }.map(\.followee)) }
    func follows(_ a: Int, _ b: Int) -> Bool { graph.pairs.contains { $0.follower == a && $0.followee == b } }

    /// Most followed first, then id.
    func byFollowers(_ indexes: some Sequence<Int>) -> [Int] {
        indexes.sorted { (graph.followerCounts[$0], id($1)) > (graph.followerCounts[$1], id($0)) }
    }

    /// The profiles `viewer` follows (all visible to them: public, or private with the viewer an
    /// approved follower) who follow `target`, ranked.
    func followedBy(_ target: Int, viewer: Int) -> [String] {
        byFollowers(following(viewer).filter { follows($0, target) }).map(id)
    }

    /// Friends of friends of `viewer`, ranked by paths, follower count, id (each profile follows
    /// 12, far under ``SuggestionBounds``, so every path counts).
    func suggestions(viewer: Int) -> [String] {
        let mine = following(viewer)
        var paths: [Int: Int] = [:]
        for middle in mine {
            for pair in graph.pairs where pair.follower == middle { paths[pair.followee, default: 0] += 1 }
        }
        let candidates = paths.keys.filter { $0 != viewer && !mine.contains($0) && isPublic($0) }
        return candidates.sorted { a, b in
            (paths[a]!, graph.followerCounts[a], id(b)) > (paths[b]!, graph.followerCounts[b], id(a))
        }.map(id)
    }
}

@Suite("Social graph: followed by people you follow, and suggested profiles (issue 40)")
struct SocialGraphTests {
    static let graph = LoadTestGraph(profiles: 120, followsPerProfile: 12)
    static let oracle = GraphOracle(graph: graph)
    /// Profile 1 is public (every 5th is private) and follows 12.
    static let viewerIndex = 1

    static func ids(_ value: JSONValue?) -> [String] {
        (value?["nodes"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    @Test("followedByViewerFollowing lists exactly the viewer's follows who follow the profile, most followed first, with the full count",
          arguments: StoreKind.allCases)
    func followedByMatchesTheGraph(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind, seed: .loadTest(profiles: 120, followsPerProfile: 12)) { gateway in
            let oracle = Self.oracle
            let viewer = gateway.store.viewer(try #require(UUID(uuidString: oracle.id(Self.viewerIndex))))
            // Public targets with at least two such profiles: one named, the rest counted.
            let targets = (0..<120).filter { oracle.isPublic($0) && $0 != Self.viewerIndex && oracle.followedBy($0, viewer: Self.viewerIndex).count >= 2 }
            try #require(targets.count >= 3)
            for target in targets.prefix(5) {
                let expected = oracle.followedBy(target, viewer: Self.viewerIndex)
                let result = try await gateway.run(
                    "query P($id: ID!) { profile(id: $id) { followedByViewerFollowing(first: 1) { totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage } } } }",
                    ["id": .string(oracle.id(target))], viewer: viewer)
                #expect(result.json["errors"] == nil)
                let list = result.json["data"]?["profile"]?["followedByViewerFollowing"]
                #expect(Self.ids(list) == Array(expected.prefix(1)))
                #expect(list?["totalCount"]?.intValue == expected.count)
                #expect(list?["pageInfo"] == ["hasNextPage": true, "hasPreviousPage": false])
            }
        }
    }

    @Test("followedByViewerFollowing of a private profile the viewer only sees as a card is empty, as its followers are (ProfileAccess), in the store too",
          arguments: StoreKind.allCases)
    func privateProfileKeepsItsFollowers(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind, seed: .loadTest(profiles: 120, followsPerProfile: 12)) { gateway in
            let oracle = Self.oracle
            let me = Self.viewerIndex
            let mine = oracle.following(me)
            let viewer = gateway.store.viewer(try #require(UUID(uuidString: oracle.id(me))))
            // Private profiles some of the viewer's follows follow: strangers to the viewer, and
            // ones the viewer follows (an approved follower sees the whole profile).
            let hasMutuals = { (target: Int) in !oracle.isPublic(target) && target != me && !oracle.followedBy(target, viewer: me).isEmpty }
            let strangers = (0..<120).filter { hasMutuals($0) && !mine.contains($0) }
            let followed = (0..<120).filter { hasMutuals($0) && mine.contains($0) }
            try #require(strangers.count >= 3 && !followed.isEmpty)
            let query = """
                query P($id: ID!) { profile(id: $id) { viewerCanSeeDetails followers(first: 5) { nodes { id } }
                  followedByViewerFollowing(first: 5) { totalCount nodes { id } } } }
                """
            for target in strangers.prefix(3) {
                let result = try await gateway.run(query, ["id": .string(oracle.id(target))], viewer: viewer)
                #expect(result.json["errors"] == nil)
                let profile = result.json["data"]?["profile"]
                #expect(profile?["viewerCanSeeDetails"] == false)
                #expect(profile?["followers"]?["nodes"] == [])
                #expect(profile?["followedByViewerFollowing"] == ["totalCount": 0, "nodes": []], "target \(target)")
                // The store applies the rule itself, whoever calls it.
                let pages = try await gateway.store.stores.socialGraph.followedByViewerFollowing(
                    [FollowedByRequest(profileId: try #require(UUID(uuidString: oracle.id(target))), limit: 5)], viewer: viewer)
                #expect(pages.map(\.profiles.count) == [0], "target \(target)")
                #expect(pages.map(\.totalCount) == [0], "target \(target)")
            }
            for target in followed.prefix(2) {
                let expected = oracle.followedBy(target, viewer: me)
                let result = try await gateway.run(query, ["id": .string(oracle.id(target))], viewer: viewer)
                let list = result.json["data"]?["profile"]?["followedByViewerFollowing"]
                #expect(result.json["data"]?["profile"]?["viewerCanSeeDetails"] == true)
                #expect(Self.ids(list) == Array(expected.prefix(5)), "target \(target)")
                #expect(list?["totalCount"]?.intValue == expected.count, "target \(target)")
            }
        }
    }

    @Test("a page of 50 profile cards asking followedByViewerFollowing costs one store call for the whole level",
          arguments: StoreKind.allCases)
    func oneCallPerWave(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind, seed: .loadTest(profiles: 120, followsPerProfile: 12)) { gateway in
            let oracle = Self.oracle
            let viewer = gateway.store.viewer(try #require(UUID(uuidString: oracle.id(Self.viewerIndex))))
            let popular = try #require((0..<120).filter(oracle.isPublic).max { Self.graph.followerCounts[$0] < Self.graph.followerCounts[$1] })
            gateway.store.resetRoundTrips()
            let result = try await gateway.run("""
                query Cards($id: ID!) { profile(id: $id) { followers(first: 50) { nodes {
                  id followedByViewerFollowing(first: 2) { totalCount nodes { id } } } } } }
                """, ["id": .string(oracle.id(popular))], viewer: viewer)
            #expect(result.json["errors"] == nil)
            let cards = result.json["data"]?["profile"]?["followers"]?["nodes"]?.arrayValue ?? []
            #expect(cards.count > 10)
            var nonEmpty = 0
            for card in cards {
                let id = try #require(card["id"]?.stringValue)
                let index = try #require(Self.graph.profileIds.firstIndex { $0.lowercased() == id })
                let expected = index == Self.viewerIndex ? [] : oracle.followedBy(index, viewer: Self.viewerIndex)
                #expect(Self.ids(card["followedByViewerFollowing"]) == Array(expected.prefix(2)), "card \(id)")
                #expect(card["followedByViewerFollowing"]?["totalCount"]?.intValue == expected.count, "card \(id)")
                if !expected.isEmpty { nonEmpty += 1 }
            }
            #expect(nonEmpty > 0)
            switch kind {
            case .embedded, .postgres:
                #expect(try #require(gateway.store.callCounts) == ["profilesByID": 1, "followPages": 1, "followedByViewerFollowing": 1])
            case .supabase:
                #expect(try #require(gateway.store.fake).requestCounts == [
                    "GET /rest/v1/profiles": 1, "POST /rest/v1/rpc/follow_pages_with_states": 1,
                    "POST /rest/v1/rpc/followed_by_viewer_following": 1,
                ])
            }
        }
    }

    @Test("followedByViewerFollowing is empty with totalCount 0 for anonymous viewers and on one's own profile, without a store call",
          arguments: StoreKind.allCases)
    func anonymousAndOwn(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let query = #"query P($h: String!) { profile(handle: $h) { followedByViewerFollowing { totalCount nodes { handle } pageInfo { hasNextPage } } } }"#
            let empty: JSONValue = ["totalCount": 0, "nodes": [], "pageInfo": ["hasNextPage": false]]
            gateway.store.resetRoundTrips()
            let anonymous = try await gateway.run(query, ["h": "carol_creator"])
            #expect(anonymous.json["errors"] == nil)
            #expect(anonymous.json["data"]?["profile"]?["followedByViewerFollowing"] == empty)
            let own = try await gateway.run(query, ["h": "alice_wonder"], viewer: gateway.alice)
            #expect(own.json["data"]?["profile"]?["followedByViewerFollowing"] == empty)
            if let counts = gateway.store.callCounts { #expect(counts["followedByViewerFollowing"] == nil) }
            if let fake = gateway.store.fake { #expect(fake.requestCounts["POST /rest/v1/rpc/followed_by_viewer_following"] == nil) }
        }
    }

    @Test("an undone follow no longer counts: after bob unfollows carol, alice sees nobody she follows following carol",
          arguments: StoreKind.allCases)
    func unfollowedDoesNotCount(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let query = #"{ profile(handle: "carol_creator") { followedByViewerFollowing { totalCount nodes { handle } } } }"#
            // Demo data: everyone follows everyone, so alice follows bob, who follows carol.
            let before = try await gateway.run(query, viewer: gateway.alice)
            #expect(before.json["data"]?["profile"]?["followedByViewerFollowing"] == ["totalCount": 1, "nodes": [["handle": "bob_builder"]]])
            let carol = DemoData.carolId.uuidString.lowercased()
            let unfollow = try await gateway.run(
                "mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(carol)], viewer: gateway.bob)
            #expect(unfollow.json["data"]?["unfollow"]?["following"] == false)
            let after = try await gateway.run(query, viewer: gateway.alice)
            #expect(after.json["data"]?["profile"]?["followedByViewerFollowing"] == ["totalCount": 0, "nodes": []])
        }
    }

    @Test("suggestedProfiles ranks friends of friends by shared follows, then follower count, then id, leaving out oneself, followed and private profiles",
          arguments: StoreKind.allCases)
    func suggestionsMatchTheGraph(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind, seed: .loadTest(profiles: 120, followsPerProfile: 12)) { gateway in
            let oracle = Self.oracle
            let me = Self.viewerIndex
            let viewer = gateway.store.viewer(try #require(UUID(uuidString: oracle.id(me))))
            let expected = oracle.suggestions(viewer: me)
            try #require(expected.count > 10)
            let query = "query S($n: Int) { suggestedProfiles(first: $n) { totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage } } }"
            let first = try await gateway.run(query, ["n": 10], viewer: viewer)
            #expect(first.json["errors"] == nil)
            let page = first.json["data"]?["suggestedProfiles"]
            #expect(Self.ids(page) == Array(expected.prefix(10)))
            #expect(page?["totalCount"]?.intValue == expected.count)
            #expect(page?["pageInfo"] == ["hasNextPage": true, "hasPreviousPage": false])
            let all = try await gateway.run(query, ["n": 50], viewer: viewer)
            let ids = Self.ids(all.json["data"]?["suggestedProfiles"])
            #expect(ids == Array(expected.prefix(50)))
            // The exclusions, said plainly.
            let followed = Set(oracle.following(me).map(oracle.id))
            #expect(!ids.contains(oracle.id(me)))
            #expect(ids.allSatisfy { !followed.contains($0) })
            let privateIds = Set((0..<120).filter { !oracle.isPublic($0) }.map(oracle.id))
            #expect(ids.allSatisfy { !privateIds.contains($0) })
        }
    }

    @Test("issue 54: a viewer who follows nobody yet is suggested the most followed public profiles, by the same rule (not private, not blocked)",
          arguments: StoreKind.allCases)
    func suggestionsForSomeoneNew(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let query = "{ suggestedProfiles(first: 10) { totalCount nodes { handle followerCount id } } }"
            func handles(_ answer: (response: GatewayResponse, json: JSONValue)) -> [String] {
                answer.json["data"]?["suggestedProfiles"]?["nodes"]?.arrayValue?.compactMap { $0["handle"]?.stringValue } ?? []
            }
            // Everyone follows everyone: no friend of a friend is left to suggest.
            let before = try await gateway.run(query, viewer: gateway.alice)
            #expect(before.json["data"]?["suggestedProfiles"]?["totalCount"] == 0)
            for other in [DemoData.bobId, DemoData.carolId] {
                _ = try await gateway.run(#"mutation { unfollow(profileId: "\#(other.lowercased)") { following } }"#, viewer: gateway.alice)
            }
            // alice follows nobody now: the public profiles, most followers first, then id.
            let fresh = try await gateway.run(query, viewer: gateway.alice)
            #expect(fresh.json["errors"] == nil, "\(fresh.json)")
            let nodes = fresh.json["data"]?["suggestedProfiles"]?["nodes"]?.arrayValue ?? []
            let ranked = nodes.sorted { a, b in
                (b["followerCount"]?.intValue ?? 0, a["id"]?.stringValue ?? "") < (a["followerCount"]?.intValue ?? 0, b["id"]?.stringValue ?? "")
            }
            #expect(nodes == ranked, "most followers first, then id")
            #expect(Set(handles(fresh)) == ["bob_builder", "carol_creator"])
            #expect(fresh.json["data"]?["suggestedProfiles"]?["totalCount"] == 2)
            // A private profile is never suggested; a block either way removes one.
            _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: gateway.carol)
            let noPrivate = try await gateway.run(query, viewer: gateway.alice)
            #expect(handles(noPrivate) == ["bob_builder"])
            _ = try await gateway.run(#"mutation { block(profileId: "\#(DemoData.aliceId.lowercased)") { blocked } }"#, viewer: gateway.bob)
            let blocked = try await gateway.run(query, viewer: gateway.alice)
            #expect(blocked.json["data"]?["suggestedProfiles"] == ["totalCount": 0, "nodes": []])
        }
    }

    @Test("suggestedProfiles signed out is UNAUTHENTICATED: You must be logged in to view suggested profiles", arguments: StoreKind.allCases)
    func suggestionsNeedASignedInViewer(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let result = try await gateway.run("{ suggestedProfiles { totalCount } }")
            #expect(GatewayFixture.messages(result.json) == ["You must be logged in to view suggested profiles"])
            #expect(GatewayFixture.codes(result.json) == ["UNAUTHENTICATED"])
            #expect(result.json["errors"]?.arrayValue?.first?["path"] == ["suggestedProfiles"])
            #expect(result.json["errors"]?.arrayValue?.first?["locations"] == [["line": 1, "column": 3]])
            let tooMany = try await gateway.run("{ suggestedProfiles(first: 51) { totalCount } }", viewer: gateway.alice)
            #expect(GatewayFixture.messages(tooMany.json) == ["first must be between 1 and 50"])
        }
    }
}

@Suite("Social graph answers in the response cache (issue 40)")
struct SocialGraphCacheTests {
    @Test("followed-by is cached per viewer, and a follow change reaches the next answer", arguments: StoreKind.allCases)
    func followedByCache(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let query = #"{ profile(handle: "carol_creator") { followedByViewerFollowing { totalCount nodes { handle } } } }"#
            let first = try await gateway.run(query, viewer: gateway.alice)
            #expect(first.json["data"]?["profile"]?["followedByViewerFollowing"] == ["totalCount": 1, "nodes": [["handle": "bob_builder"]]])
            #expect(first.response.cacheControl?.hasPrefix("private") == true)
            try await Task.sleep(nanoseconds: 50_000_000)
            _ = try await gateway.run(query, viewer: gateway.alice)
            #expect(cache.counters.hits == 1)
            // Bob's answer is his own (alice follows carol), not alice's cached one.
            let bobView = try await gateway.run(query, viewer: gateway.bob)
            #expect(bobView.json["data"]?["profile"]?["followedByViewerFollowing"] == ["totalCount": 1, "nodes": [["handle": "alice_wonder"]]])
            let bob = DemoData.bobId.uuidString.lowercased()
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: gateway.alice)
            let after = try await gateway.run(query, viewer: gateway.alice)
            #expect(after.json["data"]?["profile"]?["followedByViewerFollowing"] == ["totalCount": 0, "nodes": []])
        }
    }

    @Test("suggestions are cached per viewer, and the viewer's own unfollow reaches the next answer", arguments: StoreKind.allCases)
    func suggestionsCache(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let query = "{ suggestedProfiles { totalCount nodes { handle } } }"
            // Demo data: everyone follows everyone, so nobody is left to suggest.
            let first = try await gateway.run(query, viewer: gateway.alice)
            #expect(first.json["data"]?["suggestedProfiles"] == ["totalCount": 0, "nodes": []])
            #expect(first.response.cacheControl?.hasPrefix("private") == true)
            try await Task.sleep(nanoseconds: 50_000_000)
            _ = try await gateway.run(query, viewer: gateway.alice)
            #expect(cache.counters.hits == 1)
            let bob = DemoData.bobId.uuidString.lowercased()
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: gateway.alice)
            // Carol, whom alice follows, follows bob: he is suggested now.
            let after = try await gateway.run(query, viewer: gateway.alice)
            #expect(after.json["data"]?["suggestedProfiles"] == ["totalCount": 1, "nodes": [["handle": "bob_builder"]]])
        }
    }
}
