import Crypto
import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import ResponseCache
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Runs `body` with a gateway over a fresh store of `kind` and a response cache in a temporary folder.
func withCachedGateway(_ kind: StoreKind, _ body: (GatewayFixture, ResponseCacheStore) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
    var options = GatewayOptions()
    options.cache = cache
    try await GatewayFixture.run(kind, options: options) { gateway in try await body(gateway, cache) }
}

/// Waits (bounded) until the cache has stored what a miss left to store off the request path.
func settle(_ cache: ResponseCacheStore, _ key: () async -> Bool) async {
    for _ in 0..<200 where !(await key()) { try? await Task.sleep(nanoseconds: 2_000_000) }
}

@Suite("Response cache in the gateway: correct answers first")
struct GatewayCacheTests {
    let profileCard = #"{ profile(handle: "bob_builder") { handle followerCount viewerIsFollowing } }"#

    @Test("a repeated anonymous query is served from the cache without touching the store", arguments: StoreKind.allCases)
    func repeatHits(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let publicCard = #"{ profile(handle: "bob_builder") { handle followerCount } }"#
            let first = try await gateway.run(publicCard)
            #expect(first.response.cacheControl == "public, max-age=30")
            // viewerIsFollowing is hinted PRIVATE: the response says so, even to anonymous clients.
            #expect(try await gateway.run(profileCard).response.cacheControl == "private, max-age=30")
            await settle(cache) { await cache.lookup(anyKeyProbe()) != nil || cache.counters.hits + cache.counters.misses > 0 }
            try await Task.sleep(nanoseconds: 50_000_000)
            gateway.store.resetRoundTrips()
            let second = try await gateway.run(publicCard)
            #expect(second.response.body == first.response.body)
            #expect(second.response.etag == first.response.etag)
            // Neither store is asked: no port call on the embedded store, no HTTP request to the fake.
            switch kind {
            case .embedded, .postgres: #expect(gateway.store.callCounts == [:])
            case .supabase: #expect(gateway.store.fake?.requests.map(\.endpoint) == [])
            }
            #expect(cache.counters.hits == 1)
        }
    }

    @Test("handleAvailable is never cached (maxAge 0): a handle taken after a first answer reads as taken at once",
          arguments: StoreKind.allCases)
    func handleAvailableUncached(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, _ in
            let query = #"{ handleAvailable(handle: "fresh_handle") }"#
            let before = try await gateway.run(query)
            #expect(before.json["data"]?["handleAvailable"] == true)
            #expect(before.response.cacheControl == "no-store")
            _ = try await gateway.run(
                #"mutation { updateProfile(input: { handle: "fresh_handle" }) { profile { handle } } }"#, viewer: gateway.bob)
            #expect(try await gateway.run(query).json["data"]?["handleAvailable"] == false)
        }
    }

    @Test("a search stays cached through a bio update and is refreshed by a name change: searches match handles and names",
          arguments: StoreKind.allCases)
    func searchAfterProfileUpdates(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let search = #"{ searchProfiles(query: "bob", first: 10) { edges { node { handle } } } }"#
            let first = try await gateway.run(search, viewer: gateway.alice)
            #expect(first.json["data"]?["searchProfiles"]?["edges"]?.arrayValue?.count == 1, "\(first.json)")
            try await Task.sleep(nanoseconds: 50_000_000)
            _ = try await gateway.run(search, viewer: gateway.alice)
            try await Task.sleep(nanoseconds: 50_000_000)
            _ = try await gateway.run(#"mutation { updateProfile(input: { bio: "new bio" }) { profile { bio } } }"#, viewer: gateway.carol)
            let hits = cache.counters.hits
            #expect(try await gateway.run(search, viewer: gateway.alice).response.body == first.response.body)
            #expect(cache.counters.hits == hits + 1, "a bio update elsewhere emptied the cached search")
            _ = try await gateway.run(
                #"mutation { updateProfile(input: { displayName: "Bob's biggest fan" }) { profile { displayName } } }"#, viewer: gateway.carol)
            let after = try await gateway.run(search, viewer: gateway.alice)
            #expect(after.json["data"]?["searchProfiles"]?["edges"]?.arrayValue?.count == 2, "a renamed profile that now matches was not found")
        }
    }

    @Test("two viewers asking the same query each get their own viewerIsFollowing", arguments: StoreKind.allCases)
    func viewersApart(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, _ in
            let carol = gateway.carol
            let bob = DemoData.bobId.uuidString.lowercased()
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: carol)
            let alice = try await gateway.run(profileCard, viewer: gateway.alice)
            #expect(alice.json["data"]?["profile"]?["viewerIsFollowing"] == true)
            #expect(alice.response.cacheControl == "private, max-age=30")
            try await Task.sleep(nanoseconds: 50_000_000)
            let carolView = try await gateway.run(profileCard, viewer: carol)
            #expect(carolView.json["data"]?["profile"]?["viewerIsFollowing"] == false)
            let aliceAgain = try await gateway.run(profileCard, viewer: gateway.alice)
            #expect(aliceAgain.json["data"]?["profile"]?["viewerIsFollowing"] == true)
        }
    }

    @Test("a private profile never crosses scopes: its owner sees it, anonymous requests never do", arguments: StoreKind.allCases)
    func privateProfile(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, _ in
            let carol = gateway.carol
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
    }

    @Test("read-your-writes: after toggleFollow from another request, the next read shows the new counts and state", arguments: StoreKind.allCases)
    func readYourWrites(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, _ in
            let before = try await gateway.run(profileCard, viewer: gateway.alice)
            #expect(before.json["data"]?["profile"]?["followerCount"] == 2)
            let anonymousBefore = try await gateway.run(profileCard)
            #expect(anonymousBefore.json["data"]?["profile"]?["followerCount"] == 2)
            try await Task.sleep(nanoseconds: 50_000_000)
            let bob = DemoData.bobId.uuidString.lowercased()
            _ = try await gateway.run("mutation T($id: ID!) { toggleFollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: gateway.alice)
            let after = try await gateway.run(profileCard, viewer: gateway.alice)
            #expect(after.json["data"]?["profile"] == ["handle": "bob_builder", "followerCount": 1, "viewerIsFollowing": false])
            let anonymousAfter = try await gateway.run(profileCard)
            #expect(anonymousAfter.json["data"]?["profile"]?["followerCount"] == 1)
            let list = try await gateway.run(#"{ profile(handle: "bob_builder") { followers { totalCount nodes { handle } } } }"#, viewer: gateway.bob)
            #expect(list.json["data"]?["profile"]?["followers"] == ["totalCount": 1, "nodes": [["handle": "carol_creator"]]])
        }
    }

    @Test("the cache is consulted before validation, yet an invalid query still gets its errors and is never cached", arguments: StoreKind.allCases)
    func invalidQueriesMiss(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let invalid = #"{ profile(handle: "bob_builder") { handel } }"#
            for _ in 0..<2 {
                let result = try await gateway.run(invalid)
                #expect(result.response.outcome == .requestError)
                #expect(GatewayFixture.messages(result.json) == [#"Cannot query field "handel" on type "Profile". Did you mean "handle"?"#])
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            #expect(cache.counters.hits == 0)
        }
    }

    @Test("mutations are never cached", arguments: StoreKind.allCases)
    func mutationsNotCached(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let bob = DemoData.bobId.uuidString.lowercased()
            let toggle = "mutation T($id: ID!) { toggleFollow(profileId: $id) { following } }"
            let first = try await gateway.run(toggle, ["id": .string(bob)], viewer: gateway.alice)
            let second = try await gateway.run(toggle, ["id": .string(bob)], viewer: gateway.alice)
            #expect(first.json["data"]?["toggleFollow"]?["following"] == false)
            #expect(second.json["data"]?["toggleFollow"]?["following"] == true)
            #expect(first.response.cacheControl == "no-store")
            #expect(cache.counters.hits == 0)
        }
    }

    @Test("APQ: a hash alone is PersistedQueryNotFound until sent with its query; a wrong hash is refused", arguments: StoreKind.allCases)
    func persistedQueries(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, _ in
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
}

/// A key that is never stored: probing it just exercises the cache.
func anyKeyProbe() -> CacheKey { CacheKey(document: "probe", operationName: nil, variables: "{}", scope: .shared) }


func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
}
