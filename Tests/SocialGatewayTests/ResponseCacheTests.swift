import EmbeddedStore
import Foundation
import GraphQLEngine
import ResponseCache
import SocialDomain
import SocialGateway
import Testing

/// A gateway with a response cache in a temporary folder.
func cachedGateway() async throws -> (GatewayFixture, ResponseCacheStore) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
    var options = GatewayOptions()
    options.cache = cache
    return (try await GatewayFixture(options: options), cache)
}

/// Waits (bounded) until the cache has stored what a miss left to store off the request path.
func settle(_ cache: ResponseCacheStore, _ key: () async -> Bool) async {
    for _ in 0..<200 where !(await key()) { try? await Task.sleep(nanoseconds: 2_000_000) }
}

@Suite("Response cache in the gateway: correct answers first")
struct GatewayCacheTests {
    let profileCard = #"{ profile(handle: "bob_builder") { handle followerCount viewerIsFollowing } }"#

    @Test("a repeated anonymous query is served from the cache without touching the store")
    func repeatHits() async throws {
        let (gateway, cache) = try await cachedGateway()
        let publicCard = #"{ profile(handle: "bob_builder") { handle followerCount } }"#
        let first = try await gateway.run(publicCard)
        #expect(first.response.cacheControl == "public, max-age=30")
        // viewerIsFollowing is hinted PRIVATE: the response says so, even to anonymous clients.
        #expect(try await gateway.run(profileCard).response.cacheControl == "private, max-age=30")
        await settle(cache) { await cache.lookup(anyKeyProbe()) != nil || cache.counters.hits + cache.counters.misses > 0 }
        try await Task.sleep(nanoseconds: 50_000_000)
        gateway.store.resetCounters()
        let second = try await gateway.run(publicCard)
        #expect(second.response.body == first.response.body)
        #expect(second.response.etag == first.response.etag)
        #expect(gateway.store.callCounts.isEmpty, "store calls: \(gateway.store.callCounts)")
        #expect(cache.counters.hits == 1)
    }

    @Test("two viewers asking the same query each get their own viewerIsFollowing")
    func viewersApart() async throws {
        let (gateway, _) = try await cachedGateway()
        let carol = Viewer.user(id: DemoData.carolId, token: "t")
        let bob = DemoData.bobId.uuidString.lowercased()
        _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: carol)
        let alice = try await gateway.run(profileCard, viewer: GatewayFixture.alice)
        #expect(alice.json["data"]?["profile"]?["viewerIsFollowing"] == true)
        #expect(alice.response.cacheControl == "private, max-age=30")
        try await Task.sleep(nanoseconds: 50_000_000)
        let carolView = try await gateway.run(profileCard, viewer: carol)
        #expect(carolView.json["data"]?["profile"]?["viewerIsFollowing"] == false)
        let aliceAgain = try await gateway.run(profileCard, viewer: GatewayFixture.alice)
        #expect(aliceAgain.json["data"]?["profile"]?["viewerIsFollowing"] == true)
    }

    @Test("a private profile never crosses scopes: its owner sees it, anonymous requests never do")
    func privateProfile() async throws {
        let (gateway, _) = try await cachedGateway()
        let carol = Viewer.user(id: DemoData.carolId, token: "t")
        _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: carol)
        let query = #"{ profile(handle: "carol_creator") { handle isPublic } }"#
        let owner = try await gateway.run(query, viewer: carol)
        #expect(owner.json["data"]?["profile"] == ["handle": "carol_creator", "isPublic": false])
        try await Task.sleep(nanoseconds: 50_000_000)
        let anonymous = try await gateway.run(query)
        #expect(anonymous.json["data"]?["profile"] == .null)
        try await Task.sleep(nanoseconds: 50_000_000)
        let ownerAgain = try await gateway.run(query, viewer: carol)
        #expect(ownerAgain.json["data"]?["profile"] == ["handle": "carol_creator", "isPublic": false])
        let anonymousAgain = try await gateway.run(query)
        #expect(anonymousAgain.json["data"]?["profile"] == .null)
    }

    @Test("read-your-writes: after toggleFollow from another request, the next read shows the new counts and state")
    func readYourWrites() async throws {
        let (gateway, _) = try await cachedGateway()
        let before = try await gateway.run(profileCard, viewer: GatewayFixture.alice)
        #expect(before.json["data"]?["profile"]?["followerCount"] == 2)
        let anonymousBefore = try await gateway.run(profileCard)
        #expect(anonymousBefore.json["data"]?["profile"]?["followerCount"] == 2)
        try await Task.sleep(nanoseconds: 50_000_000)
        let bob = DemoData.bobId.uuidString.lowercased()
        _ = try await gateway.run("mutation T($id: ID!) { toggleFollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: GatewayFixture.alice)
        let after = try await gateway.run(profileCard, viewer: GatewayFixture.alice)
        #expect(after.json["data"]?["profile"] == ["handle": "bob_builder", "followerCount": 1, "viewerIsFollowing": false])
        let anonymousAfter = try await gateway.run(profileCard)
        #expect(anonymousAfter.json["data"]?["profile"]?["followerCount"] == 1)
        let list = try await gateway.run(#"{ profile(handle: "bob_builder") { followers { totalCount nodes { handle } } } }"#)
        #expect(list.json["data"]?["profile"]?["followers"] == ["totalCount": 1, "nodes": [["handle": "carol_creator"]]])
    }

    @Test("the cache is consulted before validation, yet an invalid query still gets its errors and is never cached")
    func invalidQueriesMiss() async throws {
        let (gateway, cache) = try await cachedGateway()
        let invalid = #"{ profile(handle: "bob_builder") { handel } }"#
        for _ in 0..<2 {
            let result = try await gateway.run(invalid)
            #expect(result.response.outcome == .requestError)
            #expect(GatewayFixture.messages(result.json) == [#"Cannot query field "handel" on type "Profile". Did you mean "handle"?"#])
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(cache.counters.hits == 0)
    }

    @Test("mutations are never cached")
    func mutationsNotCached() async throws {
        let (gateway, cache) = try await cachedGateway()
        let bob = DemoData.bobId.uuidString.lowercased()
        let toggle = "mutation T($id: ID!) { toggleFollow(profileId: $id) { following } }"
        let first = try await gateway.run(toggle, ["id": .string(bob)], viewer: GatewayFixture.alice)
        let second = try await gateway.run(toggle, ["id": .string(bob)], viewer: GatewayFixture.alice)
        #expect(first.json["data"]?["toggleFollow"]?["following"] == false)
        #expect(second.json["data"]?["toggleFollow"]?["following"] == true)
        #expect(first.response.cacheControl == "no-store")
        #expect(cache.counters.hits == 0)
    }

    @Test("APQ: a hash alone is PersistedQueryNotFound until sent with its query; a wrong hash is refused")
    func persistedQueries() async throws {
        let (gateway, _) = try await cachedGateway()
        let query = "{ profile(handle: \"alice_wonder\") { handle } }"
        let hash = sha256Hex(query)
        let ext: JSONObject = ["persistedQuery": ["version": 1, "sha256Hash": .string(hash)]]
        let miss = await gateway.service.execute(GatewayRequest(query: nil, extensions: ext))
        #expect(String(decoding: miss.body, as: UTF8.self) == #"{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#)
        let register = await gateway.service.execute(GatewayRequest(query: query, extensions: ext))
        #expect(String(decoding: register.body, as: UTF8.self) == #"{"data":{"profile":{"handle":"alice_wonder"}}}"#)
        let hit = await gateway.service.execute(GatewayRequest(query: nil, extensions: ext))
        #expect(String(decoding: hit.body, as: UTF8.self) == #"{"data":{"profile":{"handle":"alice_wonder"}}}"#)
        let wrong = await gateway.service.execute(
            GatewayRequest(query: "{ viewer { id } }", extensions: ["persistedQuery": ["version": 1, "sha256Hash": .string(hash)]]))
        #expect(String(decoding: wrong.body, as: UTF8.self).contains("provided sha does not match query"))
    }
}

/// A key that is never stored: probing it just exercises the cache.
func anyKeyProbe() -> CacheKey { CacheKey(document: "probe", operationName: nil, variables: "{}", scope: .shared) }

import Crypto

func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
}
