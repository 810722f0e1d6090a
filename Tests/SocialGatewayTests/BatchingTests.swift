import EmbeddedStore
import Foundation
import GraphQLEngine
import SocialDomain
import SocialGateway
import Testing

@Suite("Batching: store calls per query, not per node")
struct BatchingTests {
    @Test("the bench-shaped follower graph (50 followers, 10 following each, viewerIsFollowing everywhere) costs at most 6 store calls")
    func benchShapedQuery() async throws {
        let store = try await EmbeddedStore.temporary(seedDemoData: false)
        let seeded = try await store.seed(profiles: 400, followsPerProfile: 60)
        let service = try GatewayService(stores: GatewayStores(profiles: store, follows: store, avatars: store, callCounts: { store.callCounts }))
        let viewer = Viewer.user(id: try #require(seeded.firstProfileId), token: "t")
        store.resetCounters()
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
        let calls = store.callCounts
        let total = calls.values.reduce(0, +)
        #expect(total <= 6, "store calls: \(calls)")
        #expect(calls["followPages"] == 2)
    }

    @Test("a list of 30 profiles by handle is one store call")
    func profilesByHandle() async throws {
        let store = try await EmbeddedStore.temporary(seedDemoData: false)
        try await store.seed(profiles: 40, followsPerProfile: 3)
        let service = try GatewayService(stores: GatewayStores(profiles: store, follows: store, avatars: store))
        let handles = try await service.execute(GatewayRequest(query: "{ searchProfiles(query: \"user\", first: 30) { nodes { handle } } }"))
        let names = (try JSONParser.parse(handles.body))["data"]?["searchProfiles"]?["nodes"]?.arrayValue?.compactMap { $0["handle"]?.stringValue } ?? []
        #expect(names.count == 30)
        store.resetCounters()
        let list = names.map { JSONValue.string($0) }
        let response = await service.execute(
            GatewayRequest(query: "query Q($h: [String!]!) { profilesByHandle(handles: $h) { handle followerCount } }", variables: ["h": .array(list)]))
        #expect((try JSONParser.parse(response.body))["data"]?["profilesByHandle"]?.arrayValue?.count == 30)
        #expect(store.callCounts == ["profilesByHandle": 1])
    }
}
