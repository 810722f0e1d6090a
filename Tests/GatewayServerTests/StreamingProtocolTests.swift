import Foundation
@testable import GatewayServer
import GraphQLEngine
import Testing

/// Issue 39: the wire formats of the streaming transports, byte for byte.
@Suite("Streaming transports: graphql-transport-ws messages, graphql-sse and multipart framing (issue 39)")
struct StreamingProtocolTests {
    @Test("graphql-transport-ws: each client message type parses; anything else is 4400 Invalid message received")
    func transportWSMessages() throws {
        #expect(try TransportWSMessage.parse(#"{"type":"connection_init"}"#, maxJSONValues: 100) == .connectionInit(payload: nil))
        #expect(try TransportWSMessage.parse(#"{"type":"ping","payload":{"a":1}}"#, maxJSONValues: 100) == .ping(payload: ["a": 1]))
        #expect(try TransportWSMessage.parse(#"{"type":"pong"}"#, maxJSONValues: 100) == .pong)
        #expect(try TransportWSMessage.parse(#"{"type":"complete","id":"7"}"#, maxJSONValues: 100) == .complete(id: "7"))
        let subscribe = try TransportWSMessage.parse(
            #"{"type":"subscribe","id":"1","payload":{"query":"subscription { feedPosts { id } }","variables":{"x":1}}}"#,
            maxJSONValues: 100)
        #expect(subscribe == .subscribe(id: "1", payload: GraphQLParameters(query: "subscription { feedPosts { id } }", variables: ["x": 1])))
        for invalid in [
            "not json", "[]", #"{"id":"1"}"#, #"{"type":"next","id":"1"}"#, #"{"type":"subscribe","payload":{"query":"{a}"}}"#,
            #"{"type":"subscribe","id":"1"}"#, #"{"type":"complete"}"#, #"{"type":"connection_init","payload":[1]}"#,
            #"{"type":"subscribe","id":"1","payload":{"query":1}}"#,
        ] {
            #expect(throws: TransportWSMessage.Invalid.self, "\(invalid)") {
                try TransportWSMessage.parse(invalid, maxJSONValues: 100)
            }
        }
        // Bounded before any token is checked: a huge message is refused by its value count.
        let many = #"{"type":"ping","payload":{"a":["# + Array(repeating: "1", count: 200).joined(separator: ",") + "]}}"
        #expect(throws: TransportWSMessage.Invalid.self) { try TransportWSMessage.parse(many, maxJSONValues: 100) }
    }

    @Test("graphql-transport-ws: the token comes from Authorization, authorization, headers.Authorization or token")
    func connectionInitToken() {
        #expect(TransportWSMessage.authorization(in: ["Authorization": "Bearer a"]) == "Bearer a")
        #expect(TransportWSMessage.authorization(in: ["authorization": "Bearer b"]) == "Bearer b")
        #expect(TransportWSMessage.authorization(in: ["headers": ["Authorization": "Bearer c"]]) == "Bearer c")
        #expect(TransportWSMessage.authorization(in: ["token": "d"]) == "Bearer d")
        #expect(TransportWSMessage.authorization(in: [:]) == nil)
        #expect(TransportWSMessage.authorization(in: nil) == nil)
    }

    @Test("graphql-transport-ws: next, error and complete as the protocol writes them")
    func transportWSReplies() {
        #expect(TransportWSReply.next(id: "1", body: Array(#"{"data":{"a":1}}"#.utf8))
            == #"{"id":"1","type":"next","payload":{"data":{"a":1}}}"#)
        #expect(TransportWSReply.complete(id: "x\"y") == #"{"id":"x\"y","type":"complete"}"#)
        #expect(TransportWSReply.error(id: "2", errors: .array([["message": "no"]])) == #"{"id":"2","type":"error","payload":[{"message":"no"}]}"#)
    }

    @Test("Accept chooses the stream: text/event-stream, or multipart/mixed with subscriptionSpec; else a plain answer")
    func negotiation() {
        #expect(StreamFormat.negotiate(accept: "text/event-stream") == .serverSentEvents)
        #expect(StreamFormat.negotiate(accept: #"multipart/mixed;subscriptionSpec="1.0", application/json"#) == .multipart)
        #expect(StreamFormat.negotiate(accept: "multipart/mixed") == nil)
        #expect(StreamFormat.negotiate(accept: "application/graphql-response+json, application/json") == nil)
        #expect(StreamFormat.negotiate(accept: nil) == nil)
    }

    @Test("graphql-sse distinct connections: event: next, event: complete, comment keep-alives")
    func serverSentEvents() {
        let format = StreamFormat.serverSentEvents
        #expect(String(decoding: format.next(Array(#"{"data":1}"#.utf8)), as: UTF8.self) == "event: next\ndata: {\"data\":1}\n\n")
        #expect(String(decoding: format.complete, as: UTF8.self) == "event: complete\ndata:\n\n")
        #expect(String(decoding: format.heartbeat, as: UTF8.self) == ":\n\n")
        #expect(String(decoding: format.opening, as: UTF8.self) == ":\n\n", "the headers wait for no event")
    }

    @Test("Apollo multipart subscriptions: payload parts, {} heartbeats, payload null with errors, each ended by the next delimiter")
    func multipart() {
        let format = StreamFormat.multipart
        var body = format.opening + format.next(Array(#"{"data":{"a":1}}"#.utf8)) + format.heartbeat
        body += format.failure([GraphQLError("gone", extensions: ["code": "SLOW_CONSUMER"])]) + format.complete
        let head = "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n"
        #expect(String(decoding: body, as: UTF8.self) == "\r\n--graphql" + head + #"{"payload":{"data":{"a":1}}}"#
            + "\r\n--graphql" + head + "{}" + "\r\n--graphql" + head
            + #"{"payload":null,"errors":[{"message":"gone","extensions":{"code":"SLOW_CONSUMER"}}]}"# + "\r\n--graphql--\r\n")
        #expect(format.contentType == #"multipart/mixed;boundary="graphql";subscriptionSpec="1.0""#)
    }
}
