import Foundation
@testable import GatewayServer
import Hummingbird
import HummingbirdTesting
import NIOCore
import SocialDomain
import SocialFixtures
import Testing
@testable import GatewayServer
@testable import SocialGateway

/// A request body seen before goes straight to the response cache (issue #17): the answers must
/// be the ones the full path gives, each viewer's own, and fresh after a write.
@Suite("Repeated request bodies")
struct RepeatedRequestsTests {
    static let query = "query P($h: String!) { profile(handle: $h) { handle followerCount viewerIsFollowing } }"
    static let body = #"{"query":"\#(query)","variables":{"h":"alice_wonder"}}"#

    struct Answer: Equatable {
        var status: HTTPResponse.Status
        var body: String
        var etag: String?
        var cacheControl: String?
    }

    static func post(_ client: some TestClientProtocol, authorization: String?) async throws -> Answer {
        try await client.execute(
            uri: "/graphql", method: .post, headers: .graphQL(authorization: authorization), body: ByteBuffer(string: body)
        ) { response in
            Answer(status: response.status, body: String(buffer: response.body), etag: response.headers[.eTag],
                   cacheControl: response.headers[.cacheControl])
        }
    }

    static func counters(_ client: some TestClientProtocol) async throws -> (hits: Int, misses: Int) {
        try await client.execute(uri: "/metrics", method: .get) { response in
            func value(_ name: String) -> Int {
                let line = String(buffer: response.body).split(separator: "\n").first { $0.hasPrefix(name + " ") }
                return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
            }
            return (value("social_gateway_cache_hits_total"), value("social_gateway_cache_misses_total"))
        }
    }

    @Test("the same body answers as the full path did, counted as a hit; another viewer's is their own; a write is seen")
    func repeatedBodies() async throws {
        // A viewer's answer kept from its first asking, as without the graph in memory (with it,
        // from the second: GraphMemoryHTTPTests).
        let gateway = try await TestGateway.make(.embedded) { $0.server.gateway.graphMemory = nil }
        let alice = try await gateway.bearer("alice_wonder")
        let bob = try await gateway.bearer("bob_builder")
        try await gateway.test { client in
            let first = try await Self.post(client, authorization: alice)
            #expect(first.status == .ok)
            #expect(first.body.contains(#""viewerIsFollowing":false"#))
            #expect(first.etag != nil)
            for _ in 0..<3 { #expect(try await Self.post(client, authorization: alice) == first) }
            #expect(try await Self.counters(client) == (hits: 3, misses: 1))

            // Bob sends the same bytes: his own answer (he follows alice), not alice's.
            let bobs = try await Self.post(client, authorization: bob)
            #expect(bobs.body.contains(#""viewerIsFollowing":true"#))
            #expect(try await Self.post(client, authorization: bob) == bobs)
            #expect(try await Self.counters(client) == (hits: 4, misses: 2))

            // Bob unfollows alice: his repeated body gets the new answer, not the remembered one.
            // The same mutation body sent twice runs twice (mutations are never remembered).
            let toggle = #"{"query":"mutation($id: ID!) { toggleFollow(profileId: $id) { following } }","variables":{"id":"\#(DemoData.aliceId.uuidString)"}}"#
            for expected in ["false", "true", "false"] {
                try await client.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(authorization: bob), body: ByteBuffer(string: toggle)
                ) { response in #expect(String(buffer: response.body).contains(#""following":\#(expected)"#)) }
            }
            let after = try await Self.post(client, authorization: bob)
            // The remembered lookup missed, and the full path's miss alone was counted.
            #expect(try await Self.counters(client) == (hits: 4, misses: 3))
            #expect(after.body.contains(#""viewerIsFollowing":false"#))
            #expect(after.body.contains(#""followerCount":1"#))
            #expect(after.etag != bobs.etag)
            // Anonymous: the shared scope, an answer without the viewer's relation.
            let anonymous = try await Self.post(client, authorization: nil)
            #expect(anonymous.body.contains(#""viewerIsFollowing":false"#))
            #expect(try await Self.post(client, authorization: nil) == anonymous)
        }
    }

    @Test("bodies are the same key only byte for byte and for the same viewer, whatever their lengths")
    func keyEquality() {
        let viewer = UUID()
        func key(_ body: String, _ who: UUID? = viewer) -> RepeatedRequests.Key { .init(viewer: who, body: Array(body.utf8)) }
        #expect(key(Self.body) == key(Self.body))
        #expect(key("") == key(""))
        // Same length, one byte apart (first, middle, last).
        for index in [0, Self.body.utf8.count / 2, Self.body.utf8.count - 1] {
            var bytes = Array(Self.body.utf8)
            bytes[index] ^= 1
            #expect(key(Self.body) != RepeatedRequests.Key(viewer: viewer, body: bytes))
        }
        #expect(key(Self.body) != key(Self.body + " "))
        #expect(key(Self.body) != key(Self.body, nil))
        #expect(key(Self.body) != key(Self.body, UUID()))
    }
}
