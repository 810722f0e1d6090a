import Foundation
import GatewayTestSupport
import GraphQLEngine
import ResponseCache
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

extension GatewayFixture {
    /// Runs a request asking for an incremental answer in `format` (nil: a client that did not
    /// ask) and returns every payload's JSON text, the first one first.
    func payloads(
        _ query: String, _ variables: JSONObject = [:], viewer: Viewer = .anonymous, format: IncrementalFormat? = .v0_2
    ) async throws -> (response: GatewayResponse, texts: [String]) {
        var request = GatewayRequest(query: query, variables: variables, viewer: viewer)
        request.incremental = format
        let response = await service.execute(request)
        var texts = [String(decoding: response.body, as: UTF8.self)]
        try await response.incremental?.forEach { texts.append(String(decoding: $0.body, as: UTF8.self)) }
        return (response, texts)
    }
}

/// A profile card with its followers deferred: the issue's example.
private let deferredCard = #"""
    query Card($h: String!) {
      profile(handle: $h) { handle followerCount ...Followers @defer(label: "followers") }
    }
    fragment Followers on Profile { followers(first: 5) { totalCount nodes { handle } } }
    """#

@Suite("Incremental delivery through the gateway service: negotiated, cached, priced")
struct IncrementalDeliveryServiceTests {
    @Test("a profile card's header comes first and its followers in the next payload, on every store", arguments: StoreKind.allCases)
    func deferredFollowers(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let v02 = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice)
            #expect(
                v02.texts == [
                    #"{"data":{"profile":{"handle":"bob_builder","followerCount":2}},"pending":[{"id":"0","path":["profile"],"label":"followers"}],"hasNext":true}"#,
                    #"{"hasNext":false,"incremental":[{"data":{"followers":{"totalCount":2,"nodes":[{"handle":"carol_creator"},{"handle":"alice_wonder"}]}},"id":"0"}],"completed":[{"id":"0"}]}"#,
                ])
            #expect(v02.response.outcome == .executed)
            let v01 = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice, format: .v0_1)
            #expect(
                v01.texts == [
                    #"{"data":{"profile":{"handle":"bob_builder","followerCount":2}},"hasNext":true}"#,
                    #"{"hasNext":false,"incremental":[{"data":{"followers":{"totalCount":2,"nodes":[{"handle":"carol_creator"},{"handle":"alice_wonder"}]}},"path":["profile"],"label":"followers"}]}"#,
                ])
        }
    }

    @Test("a client that did not ask gets the whole answer at once: @defer and @stream are ignored, never refused")
    func inlineFallback() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let streamed = #"{ profile(handle: "bob_builder") { handle ...F @defer followers(first: 5) { nodes @stream(initialCount: 1) { handle } } } } fragment F on Profile { followerCount }"#
            let whole = try await gateway.payloads(streamed, viewer: gateway.alice, format: nil)
            #expect(whole.response.incremental == nil)
            #expect(
                whole.texts == [
                    #"{"data":{"profile":{"handle":"bob_builder","followerCount":2,"followers":{"nodes":[{"handle":"carol_creator"},{"handle":"alice_wonder"}]}}}}"#
                ])
            // A client that asked, for a document that defers nothing, gets its whole answer too.
            let plain = try await gateway.payloads(#"{ profile(handle: "bob_builder") { handle } }"#, format: .v0_2)
            #expect(plain.response.incremental == nil)
            #expect(plain.texts == [#"{"data":{"profile":{"handle":"bob_builder"}}}"#])
        }
    }

    @Test("@stream on a connection's nodes sends the first page's first items, then the rest", arguments: StoreKind.allCases)
    func streamedConnection(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let query = #"{ profile(handle: "bob_builder") { followers(first: 5) { nodes @stream(initialCount: 1) { handle } } } }"#
            let streamed = try await gateway.payloads(query, viewer: gateway.alice)
            #expect(
                streamed.texts == [
                    #"{"data":{"profile":{"followers":{"nodes":[{"handle":"carol_creator"}]}}},"pending":[{"id":"0","path":["profile","followers","nodes"]}],"hasNext":true}"#,
                    #"{"hasNext":false,"incremental":[{"items":[{"handle":"alice_wonder"}],"id":"0"}],"completed":[{"id":"0"}]}"#,
                ])
        }
    }

    @Test("the whole incremental answer is cached: a repeat replays every payload without the store, a write invalidates it",
          arguments: StoreKind.allCases)
    func cached(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            _ = cache
            let first = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice)
            #expect(first.response.cacheControl == "private, max-age=30")
            // The answer is stored off the request's path, once its last payload went out.
            try await Task.sleep(nanoseconds: 100_000_000)
            gateway.store.resetRoundTrips()
            let second = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice)
            #expect(second.texts == first.texts)
            switch kind {
            case .embedded, .postgres: #expect(gateway.store.callCounts == [:])
            case .supabase: #expect(gateway.store.fake?.requests.map(\.endpoint) == [])
            }
            // The whole answer of the same request is another entry: a client that did not ask
            // for payloads never gets them from the cache.
            let whole = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice, format: nil)
            #expect(whole.response.incremental == nil)
            #expect(whole.texts.count == 1)
            // Carol unfollows bob: the deferred part (the followers) was cached with its tags.
            let bob = DemoData.bobId.uuidString.lowercased()
            _ = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(bob)], viewer: gateway.carol)
            let after = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice)
            #expect(
                after.texts == [
                    #"{"data":{"profile":{"handle":"bob_builder","followerCount":1}},"pending":[{"id":"0","path":["profile"],"label":"followers"}],"hasNext":true}"#,
                    #"{"hasNext":false,"incremental":[{"data":{"followers":{"totalCount":1,"nodes":[{"handle":"alice_wonder"}]}},"id":"0"}],"completed":[{"id":"0"}]}"#,
                ])
        }
    }

    @Test("issue 51: MAX_RESPONSE_BYTES bounds an incremental answer: a first payload over it is refused whole; the payload that would pass it is replaced by one that fails what is still open with RESPONSE_TOO_LARGE, in both formats")
    func responseSizeBounded() async throws {
        var small = GatewayOptions()
        small.maxResponseBytes = 100  // the first payload has 140 bytes
        try await GatewayFixture.run(.embedded, options: small) { gateway in
            let refused = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice)
            #expect(refused.response.incremental == nil)
            #expect(refused.response.errorCodes == ["RESPONSE_TOO_LARGE"])
            #expect(!refused.texts[0].contains("bob_builder"))
        }
        var both = GatewayOptions()
        both.maxResponseBytes = 200  // the first fits (140 bytes; 85 in v0.1), the two together (310; 255) do not
        try await GatewayFixture.run(.embedded, options: both) { gateway in
            let error = #"{"message":"The response would be larger than 200 bytes, the most this server sends; select fewer fields or smaller pages.","extensions":{"code":"RESPONSE_TOO_LARGE","maxBytes":200}}"#
            let v02 = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice)
            #expect(v02.response.outcome == .executed)
            #expect(v02.texts.count == 2)
            #expect(v02.texts.last == #"{"hasNext":false,"completed":[{"id":"0","errors":["# + error + "]}]}")
            let v01 = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice, format: .v0_1)
            #expect(v01.texts.count == 2)
            #expect(
                v01.texts.last
                    == #"{"hasNext":false,"incremental":[{"data":null,"path":["profile"],"label":"followers","errors":["# + error + "]}]}")
            // Nothing of a cut answer is kept: the next request runs it again and is cut again.
            let again = try await gateway.payloads(deferredCard, ["h": "bob_builder"], viewer: gateway.alice)
            #expect(again.texts == v02.texts)
        }
    }

    @Test("issue 51: the closing payload fails only what the client was told is open: a stream whose items were sent, and a fragment announced with it")
    func closingPayloadNamesWhatIsOpen() async throws {
        var options = GatewayOptions()
        options.maxResponseBytes = 330
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            // The first payload announces the stream (id 0) and the fragment (id 1); the items come
            // one payload at a time, so one fits and a later one passes the limit.
            let query = #"{ profile(handle: "bob_builder") { handle ... @defer(label: "count") { followerCount } followers(first: 5) { nodes @stream(initialCount: 0) { handle } } } }"#
            let answer = try await gateway.payloads(query, viewer: gateway.alice)
            #expect(answer.response.outcome == .executed)
            let last = try #require(answer.texts.last)
            #expect(last.hasPrefix(#"{"hasNext":false,"completed":["#))
            #expect(last.contains("RESPONSE_TOO_LARGE"))
            let total = answer.texts.reduce(0) { $0 + $1.utf8.count } - last.utf8.count
            #expect(total <= 330, "the payloads before the closing one fit the limit")
            // Every id the closing payload fails was announced and not completed before it.
            let announced = Set(answer.texts.flatMap { Self.ids(in: $0, "pending") })
            let completedBefore = Set(answer.texts.dropLast().flatMap { Self.ids(in: $0, "completed") })
            let failed = Set(Self.ids(in: last, "completed"))
            #expect(!failed.isEmpty)
            #expect(failed == announced.subtracting(completedBefore))
        }
    }

    /// The `id`s of a payload's `pending` or `completed` entries.
    static func ids(in payload: String, _ key: String) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else { return [] }
        return (object[key] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test("cost and depth count deferred selections: a deferred part over MAX_COST is refused before anything runs")
    func pricedAndBounded() async throws {
        var options = GatewayOptions()
        options.demandControl.maxCost = 20
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            // 1 (profile) + 20 followers (first: 20, objects of 1): over 20 only through the deferred fragment.
            let query = #"{ profile(handle: "bob_builder") { handle ... @defer { followers(first: 20) { nodes { handle } } } } }"#
            let refused = try await gateway.payloads(query, viewer: gateway.alice)
            #expect(refused.response.outcome == .requestError)
            #expect(refused.response.incremental == nil)
            #expect(refused.response.errorCodes == ["QUERY_TOO_COMPLEX"])
        }
        var shallow = GatewayOptions()
        shallow.validation.maxDepth = 3
        try await GatewayFixture.run(.embedded, options: shallow) { gateway in
            let query = #"{ profile(handle: "bob_builder") { ... @defer { followers { nodes { handle } } } } }"#
            let refused = try await gateway.payloads(query, viewer: gateway.alice)
            #expect(refused.response.errorCodes == ["QUERY_TOO_DEEP"])
        }
    }

    @Test("a mutation's deferred part arrives after its write, which is invalidated before the first payload")
    func mutationPayloads() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let bob = DemoData.bobId.uuidString.lowercased()
            let result = try await gateway.payloads(
                "mutation U($id: ID!) { unfollow(profileId: $id) { following ... @defer { profile { followerCount } } } }",
                ["id": .string(bob)], viewer: gateway.carol)
            #expect(
                result.texts == [
                    #"{"data":{"unfollow":{"following":false}},"pending":[{"id":"0","path":["unfollow"]}],"hasNext":true}"#,
                    #"{"hasNext":false,"incremental":[{"data":{"profile":{"followerCount":1}},"id":"0"}],"completed":[{"id":"0"}]}"#,
                ])
            #expect(result.response.cacheControl == "no-store")
        }
    }
}
