import Foundation
import GraphQLEngine
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GatewayServer

/// `@defer` and `@stream` over HTTP: both multipart formats, chosen by `Accept`, byte for byte,
/// and the whole answer for every other client.
@Suite("Incremental delivery over HTTP: multipart/mixed negotiated by Accept")
struct IncrementalHTTPTests {
    static let card = #"query($h: String!) { profile(handle: $h) { handle followerCount ... @defer(label: "followers") { followers(first: 5) { totalCount nodes { handle } } } } }"#
    static let first = #"{"data":{"profile":{"handle":"bob_builder","followerCount":2}},"hasNext":true}"#
    static let followers = #"{"followers":{"totalCount":2,"nodes":[{"handle":"carol_creator"},{"handle":"alice_wonder"}]}}"#

    /// POSTs `query` as alice with `accept`.
    static func post(_ query: String, accept: String, variables: [String: Any] = ["h": "bob_builder"]) async throws -> TestResponse {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        let body = GraphQLBody.json(query, variables: variables)
        return try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(accept: accept, authorization: bearer), body: body)
        }
    }

    @Test("Accept: multipart/mixed;deferSpec=20220824: the header first, then the deferred fragment with its path and label")
    func deferSpec() async throws {
        let response = try await Self.post(Self.card, accept: "multipart/mixed;deferSpec=20220824, application/json")
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == #"multipart/mixed;boundary="graphql";deferSpec=20220824"#)
        #expect(response.headers[.cacheControl] == "private, max-age=30")
        let part = "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n"
        #expect(
            response.text == "\r\n--graphql" + part + Self.first + "\r\n--graphql" + part
                + #"{"hasNext":false,"incremental":[{"data":"# + Self.followers + #","path":["profile"],"label":"followers"}]}"#
                + "\r\n--graphql--\r\n")
    }

    @Test("Accept: multipart/mixed;incrementalSpec=v0.2: pending with ids, incremental by id, completed")
    func incrementalSpec() async throws {
        let response = try await Self.post(Self.card, accept: "multipart/mixed;incrementalSpec=v0.2, application/json")
        #expect(response.headers[.contentType] == #"multipart/mixed;boundary="graphql";incrementalSpec=v0.2"#)
        #expect(
            String(decoding: IncrementalDelivery.body([]), as: UTF8.self) == "\r\n--graphql--\r\n")
        let expected = IncrementalDelivery.body([
            Array(#"{"data":{"profile":{"handle":"bob_builder","followerCount":2}},"pending":[{"id":"0","path":["profile"],"label":"followers"}],"hasNext":true}"#.utf8),
            Array((#"{"hasNext":false,"incremental":[{"data":"# + Self.followers + #","id":"0"}],"completed":[{"id":"0"}]}"#).utf8),
        ])
        #expect(Array(response.body.readableBytesView) == expected)
    }

    @Test("an answer that grows past MAX_RESPONSE_BYTES ends with a part failing the open fragment with RESPONSE_TOO_LARGE, then the closing delimiter")
    func pastTheResponseLimit() async throws {
        let gateway = try await TestGateway.make { $0.server.gateway.maxResponseBytes = 200 }
        let bearer = try await gateway.bearer("alice_wonder")
        let response = try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .post,
                headers: .graphQL(accept: "multipart/mixed;incrementalSpec=v0.2", authorization: bearer),
                body: GraphQLBody.json(Self.card, variables: ["h": "bob_builder"]))
        }
        #expect(response.status == .ok)
        let expected = IncrementalDelivery.body([
            Array(#"{"data":{"profile":{"handle":"bob_builder","followerCount":2}},"pending":[{"id":"0","path":["profile"],"label":"followers"}],"hasNext":true}"#.utf8),
            Array((#"{"hasNext":false,"completed":[{"id":"0","errors":[{"message":"The response would be larger than 200 bytes, the most this server sends; select fewer fields or smaller pages.","extensions":{"code":"RESPONSE_TOO_LARGE","maxBytes":200}}]}]}"#).utf8),
        ])
        #expect(response.text == String(decoding: expected, as: UTF8.self))
    }

    @Test("any other Accept gets the whole answer as JSON: an app that sends @defer without asking keeps working")
    func inline() async throws {
        for accept in ["application/json", "application/graphql-response+json", "*/*", #"multipart/mixed;subscriptionSpec="1.0", application/json"#] {
            let response = try await Self.post(Self.card, accept: accept)
            #expect(response.status == .ok, "\(accept)")
            #expect(
                response.text == #"{"data":{"profile":{"handle":"bob_builder","followerCount":2,"followers":{"totalCount":2,"nodes":[{"handle":"carol_creator"},{"handle":"alice_wonder"}]}}}}"#
                    || response.text.contains(#"{"payload":{"data":{"profile":{"handle":"bob_builder","followerCount":2,"followers""#),
                "\(accept): \(response.text)")
        }
        // A client that asks for payloads, for a document that defers nothing: JSON.
        let plain = try await Self.post(#"{ profile(handle: "bob_builder") { handle } }"#, accept: "multipart/mixed;deferSpec=20220824, application/json")
        #expect(plain.headers[.contentType] == "application/json; charset=utf-8")
        #expect(plain.text == #"{"data":{"profile":{"handle":"bob_builder"}}}"#)
    }

    @Test("server-sent events: a query with @defer answers in payloads, one event: next each (v0.2)")
    func serverSentEvents() async throws {
        let response = try await Self.post(Self.card, accept: "text/event-stream")
        #expect(response.headers[.contentType]?.hasPrefix("text/event-stream") == true)
        let events = response.text.components(separatedBy: "\n\n").filter { $0.hasPrefix("event: next") }
        #expect(
            events == [
                "event: next\ndata: " + #"{"data":{"profile":{"handle":"bob_builder","followerCount":2}},"pending":[{"id":"0","path":["profile"],"label":"followers"}],"hasNext":true}"#,
                "event: next\ndata: " + #"{"hasNext":false,"incremental":[{"data":"# + Self.followers + #","id":"0"}],"completed":[{"id":"0"}]}"#,
            ])
    }

    @Test("an invalid document with an incremental Accept is the usual JSON error, not a stream")
    func invalid() async throws {
        let response = try await Self.post("{ profile(handle: \"x\") { handle @stream } }", accept: "multipart/mixed;incrementalSpec=v0.2, application/json")
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        #expect(response.text.contains(#"Directive \"@stream\" cannot be used on non-list field \"Profile.handle\"."#))
    }

    @Test("Accept negotiation: deferSpec=20220824 or plain multipart/mixed is v0.1, incrementalSpec=v0.2 is v0.2, subscriptionSpec is not incremental")
    func negotiation() {
        #expect(IncrementalDelivery.format(accept: "multipart/mixed;deferSpec=20220824,application/json") == .v0_1)
        #expect(IncrementalDelivery.format(accept: "multipart/mixed; deferSpec=20220824, application/graphql-response+json, application/json") == .v0_1)
        #expect(IncrementalDelivery.format(accept: "multipart/mixed") == .v0_1)
        #expect(IncrementalDelivery.format(accept: "multipart/mixed;incrementalSpec=v0.2") == .v0_2)
        #expect(IncrementalDelivery.format(accept: "multipart/mixed;deferSpec=20220824;q=0.5, multipart/mixed;incrementalSpec=v0.2") == .v0_2)
        #expect(IncrementalDelivery.format(accept: #"multipart/mixed;boundary="graphql";subscriptionSpec=1.0, application/json"#) == nil)
        #expect(IncrementalDelivery.format(accept: "multipart/mixed;incrementalSpec=v9") == nil)
        #expect(IncrementalDelivery.format(accept: "application/json") == nil)
        #expect(IncrementalDelivery.format(accept: nil) == nil)
    }

    @Test("RFC 9110 §8.3.1: media types are case-insensitive: Multipart/Mixed and Text/Event-Stream negotiate as their lower-case forms")
    func caseInsensitive() {
        #expect(IncrementalDelivery.format(accept: "Multipart/Mixed; deferSpec=20220824") == .v0_1)
        #expect(IncrementalDelivery.format(accept: "MULTIPART/MIXED;incrementalSpec=v0.2") == .v0_2)
        #expect(StreamFormat.negotiate(accept: "Text/Event-Stream") == .serverSentEvents)
        #expect(StreamFormat.negotiate(accept: #"Multipart/Mixed;subscriptionSpec="1.0", application/json"#) == .multipart)
        #expect(StreamFormat.negotiate(accept: "application/graphql-response+json, application/json") == nil)
        #expect(HeaderScan.contains("application/json, MULTIPART/mixed", "multipart"))
        #expect(!HeaderScan.contains("multipar", "multipart"))
        #expect(!HeaderScan.contains("", "multipart"))
    }
}
