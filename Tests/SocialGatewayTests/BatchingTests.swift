import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Each store's own round-trip figure: port calls on the embedded store, HTTP requests the
/// Supabase fake received (the "one request per query level, not per node").
@Suite("Batching: store round trips per query, not per node")
struct BatchingTests {
    @Test("the bench-shaped follower graph (50 followers, 10 following each, viewerIsFollowing everywhere) costs 3 round trips on either store",
          arguments: StoreKind.allCases)
    func benchShapedQuery(_ kind: StoreKind) async throws {
        try await TestStore.run(kind, seed: .loadTest(profiles: 400, followsPerProfile: 60)) { store in
            let service = try GatewayService(stores: store.stores)
            let graph = LoadTestGraph(profiles: 400, followsPerProfile: 60)
            let viewer = store.viewer(try #require(UUID(uuidString: graph.profileIds[0])))
            store.resetRoundTrips()
            let query = """
                query ViewerFollowers {
                  me: viewer {
                    handle viewerIsFollowing followerCount
                    followers(first: 50) {
                      totalCount
                      edges { cursor follower: node {
                        handle viewerIsFollowing followsViewer
                        topFollowing: following(first: 10) { totalCount edges { node { handle viewerIsFollowing } } }
                      } }
                    }
                  }
                }
                """
            let response = await service.execute(GatewayRequest(query: query, viewer: viewer))
            let json = try JSONParser.parse(response.body)
            #expect(json["errors"] == nil)
            let edges = json["data"]?["me"]?["followers"]?["edges"]?.arrayValue ?? []
            // Private followers are hidden from other viewers, so a page can hold fewer than 50.
            #expect(edges.count > 40 && edges.count <= 50)
            #expect(edges.allSatisfy { ($0["follower"]?["topFollowing"]?["edges"]?.arrayValue?.count ?? 0) > 5 })
            // One round trip per level: the viewer, then two levels of pages, each carrying the
            // viewer's follow states toward the profiles it lists (none asked of oneself).
            switch kind {
            case .embedded, .postgres:
                #expect(try #require(store.callCounts) == ["profilesByID": 1, "followPages": 2])
            case .supabase:
                #expect(try #require(store.fake).requestCounts == [
                    "GET /rest/v1/profiles": 1, "POST /rest/v1/rpc/follow_pages_with_states": 2,
                ])
            }
        }
    }

    @Test("on Supabase the follower graph waits for 3 sequential round trips (issue #17), viewerIsFollowing at every level",
          .enabled(if: StoreKind.allCases.contains(.supabase), "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func supabaseWaves() async throws {
        try await TestStore.run(.supabase, seed: .loadTest(profiles: 400, followsPerProfile: 60)) { store in
            let fake = try #require(store.fake)
            let service = try GatewayService(stores: store.stores)
            let graph = LoadTestGraph(profiles: 400, followsPerProfile: 60)
            let query = """
                query FollowerGraph($h: String!) { profile(handle: $h) { id handle viewerIsFollowing
                  followers(first: 50) { totalCount edges { cursor node { id handle viewerIsFollowing followsViewer
                    following(first: 10) { totalCount edges { cursor node { id handle viewerIsFollowing } } } } } } } }
                """
            // A latency far above the gateway's own time keeps waves apart on a busy machine.
            fake.latency = .milliseconds(100)
            do {
                let viewer = store.viewer(try #require(UUID(uuidString: graph.profileIds[0])))
                fake.clearRequests()
                let response = await service.execute(GatewayRequest(query: query, variables: ["h": "user7"], viewer: viewer))
                let json = try JSONParser.parse(response.body)
                #expect(json["errors"] == nil)
                #expect((json["data"]?["profile"]?["followers"]?["edges"]?.arrayValue?.count ?? 0) > 40)
                // The profile; its followers page (with states) beside the root's own state; the
                // following pages (with states).
                let waves = fake.waves.map { $0.map(\.endpoint).sorted() }
                #expect(waves == [
                    ["GET /rest/v1/profiles"],
                    ["POST /rest/v1/rpc/active_follows", "POST /rest/v1/rpc/follow_pages_with_states"],
                    ["POST /rest/v1/rpc/follow_pages_with_states"],
                ])
            }
        }
    }

    @Test("a level of 50 pages of 40 answers byte for byte the same on both stores; Supabase splits it under the 1000-row cap")
    func wideLevelSameOnBothStores() async throws {
        let query = """
            query Wide($h: String!) {
              profile(handle: $h) {
                followers(first: 50) { totalCount nodes { handle following(first: 40) {
                  totalCount pageInfo { hasNextPage endCursor } edges { cursor followedAt node { handle } }
                } } }
              }
            }
            """
        var bodies: [StoreKind: String] = [:]
        for kind in StoreKind.allCases {
            try await TestStore.run(kind, seed: .loadTest(profiles: 200, followsPerProfile: 70)) { store in
                let service = try GatewayService(stores: store.stores)
                store.resetRoundTrips()
                let reader = store.viewer(UUID(uuidString: "5ead0000-0000-4000-8000-000000000001")!)
                let response = await service.execute(GatewayRequest(query: query, variables: ["h": "user2"], viewer: reader))
                bodies[kind] = String(decoding: response.body, as: UTF8.self)
                if let fake = store.fake {
                    // 50 pages of up to 41 rows: the second level needs three requests of at most 1,000 rows.
                    #expect(fake.requestCounts == ["GET /rest/v1/profiles": 1, "POST /rest/v1/rpc/follow_pages_with_states": 4])
                }
            }
        }
        let embedded = try #require(bodies[.embedded])
        let json = try JSONParser.parse(Array(embedded.utf8))
        #expect(json["errors"] == nil)
        let nodes = json["data"]?["profile"]?["followers"]?["nodes"]?.arrayValue ?? []
        #expect(nodes.count == 50)
        #expect(nodes.allSatisfy { $0["following"]?["edges"]?.arrayValue?.count ?? 0 > 30 })
        #expect(bodies[.supabase] == embedded)
        if StoreKind.allCases.contains(.postgres) { #expect(bodies[.postgres] == embedded) }
    }

    @Test("a list of 30 profiles by handle is one round trip", arguments: StoreKind.allCases)
    func profilesByHandle(_ kind: StoreKind) async throws {
        try await TestStore.run(kind, seed: .loadTest(profiles: 40, followsPerProfile: 3)) { store in
            let service = try GatewayService(stores: store.stores)
            let reader = store.viewer(UUID(uuidString: "5ead0000-0000-4000-8000-000000000001")!)
            let handles = await service.execute(
                GatewayRequest(query: "{ searchProfiles(query: \"user\", first: 30) { nodes { handle } } }", viewer: reader))
            let names = (try JSONParser.parse(handles.body))["data"]?["searchProfiles"]?["nodes"]?.arrayValue?.compactMap { $0["handle"]?.stringValue } ?? []
            #expect(names.count == 30)
            store.resetRoundTrips()
            let list = names.map { JSONValue.string($0) }
            let response = await service.execute(
                GatewayRequest(query: "query Q($h: [String!]!) { profilesByHandle(handles: $h) { handle followerCount } }", variables: ["h": .array(list)]))
            #expect((try JSONParser.parse(response.body))["data"]?["profilesByHandle"]?.arrayValue?.count == 30)
            switch kind {
            case .embedded, .postgres: #expect(store.callCounts == ["profilesByHandle": 1])
            case .supabase: #expect(store.fake?.requestCounts == ["GET /rest/v1/profiles": 1])
            }
        }
    }
}
