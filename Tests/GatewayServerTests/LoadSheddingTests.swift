import Foundation
import GatewayAssembly
@testable import GatewayServer
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import SocialDomain
import Testing

/// Many connections, served fairly (issue 41, part 4): a request that waited too long to start
/// is refused at once, operational routes never are, and the listening socket keeps accepting.
@Suite("Load shedding and accepting")
struct LoadSheddingTests {
    static let card = #"{ profile(handle: "alice_wonder") { handle } }"#

    /// Headers of a request whose head arrived `ago` before now (what ``RequestArrivalStamp``
    /// writes in a live server; the router-only test client has no channel handlers, so the
    /// value sent is the value the route sees).
    static func arrived(_ ago: Duration, _ fields: HTTPFields = .graphQL()) -> HTTPFields {
        var fields = fields
        let now = NIODeadline.now().uptimeNanoseconds
        let nanoseconds = UInt64(ago.components.seconds) * 1_000_000_000 + UInt64(ago.components.attoseconds / 1_000_000_000)
        fields[RequestArrivalStamp.header] = String(now - min(now - 1, nanoseconds))
        return fields
    }

    @Test("a GraphQL request that waited past MAX_QUEUE_WAIT is refused: 503 SERVER_BUSY with Retry-After: 1, nothing run, counted in /metrics")
    func refusedPastTheBound() async throws {
        let gateway = try await TestGateway.make(.embedded) { $0.server.maxQueueWait = .milliseconds(500) }
        try await gateway.test(.router) { client in
            for accept in ["application/graphql-response+json", "application/json"] {
                try await client.execute(
                    uri: "/graphql", method: .post, headers: Self.arrived(.seconds(2), .graphQL(accept: accept)),
                    body: GraphQLBody.json(Self.card)
                ) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(response.headers[.retryAfter] == "1")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    #expect(response.firstErrorCode == "SERVER_BUSY")
                    #expect(response.firstErrorMessage == "The server has more requests than it can answer in time; try again in a second.")
                    #expect((response.json as? [String: Any])?["data"] == nil)
                }
            }
            let uri = "/graphql?query=%7B%20__typename%20%7D"
            try await client.execute(uri: uri, method: .get, headers: Self.arrived(.seconds(1))) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = response.text
                #expect(text.contains("# TYPE social_gateway_shed_requests_total counter"))
                #expect(text.contains("social_gateway_shed_requests_total 3"))
                // Refused before anything ran: the profile was never read, no operation counted.
                #expect(!text.contains(#"social_gateway_store_calls_total{operation="profilesByHandle"}"#))
                #expect(text.contains(#"social_gateway_graphql_requests_total{outcome="ok"} 0"#))
            }
        }
    }

    @Test("a request that waited less than MAX_QUEUE_WAIT is answered; /healthz, /readyz and /metrics are never refused")
    func servedWithinTheBoundAndOperationalRoutes() async throws {
        let gateway = try await TestGateway.make(.embedded) { $0.server.maxQueueWait = .milliseconds(500) }
        try await gateway.test(.router) { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: Self.arrived(.milliseconds(100)), body: GraphQLBody.json(Self.card)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"profile":{"handle":"alice_wonder"}}}"#)
            }
            for path in ["/healthz", "/readyz", "/metrics"] {
                try await client.execute(uri: path, method: .get, headers: Self.arrived(.seconds(30), [:])) { response in
                    #expect(response.status == .ok, "\(path)")
                }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.text.contains("social_gateway_shed_requests_total 0"))
            }
        }
    }

    @Test("MAX_QUEUE_WAIT=0 never refuses, however long a request waited")
    func zeroTurnsSheddingOff() async throws {
        let gateway = try await TestGateway.make(.embedded) { $0.server.maxQueueWait = .zero }
        try await gateway.test(.router) { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: Self.arrived(.seconds(60)), body: GraphQLBody.json(Self.card)
            ) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("on a live server the arrival is the server's own: a client's X-Gateway-Arrival is replaced, and a bound of 1 ns refuses every request")
    func arrivalIsStampedByTheServer() async throws {
        // A forged arrival of long ago is overwritten: the request is served.
        let gateway = try await TestGateway.make(.embedded) { $0.server.maxQueueWait = .milliseconds(500) }
        try await gateway.test(.live) { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: Self.arrived(.seconds(60)), body: GraphQLBody.json(Self.card)
            ) { response in
                #expect(response.status == .ok)
            }
        }
        // No request starts within a nanosecond of its arrival: the stamp is written for requests
        // that carry none, on the first request of a connection and on the next ones.
        let strict = try await TestGateway.make(.embedded) { $0.server.maxQueueWait = .nanoseconds(1) }
        try await strict.test(.live) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json(Self.card)) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(response.headers[.retryAfter] == "1")
                    #expect(response.firstErrorCode == "SERVER_BUSY")
                }
            }
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("Configuration: MAX_QUEUE_WAIT (seconds, default 0.5) and LISTEN_BACKLOG (default 4096); bad values name the variable")
    func environment() throws {
        let defaults = try ServerConfiguration.fromEnvironment([:])
        #expect(defaults.maxQueueWait == .milliseconds(500))
        #expect(defaults.listenBacklog == 4096)
        let set = try ServerConfiguration.fromEnvironment(["MAX_QUEUE_WAIT": "1.25", "LISTEN_BACKLOG": "1024"])
        #expect(set.maxQueueWait == .milliseconds(1250))
        #expect(set.listenBacklog == 1024)
        #expect(try ServerConfiguration.fromEnvironment(["MAX_QUEUE_WAIT": "0"]).maxQueueWait == .zero)
        #expect(throws: ConfigurationError("MAX_QUEUE_WAIT must be a non-negative number of seconds, got \"soon\"")) {
            try ServerConfiguration.fromEnvironment(["MAX_QUEUE_WAIT": "soon"])
        }
        #expect(throws: ConfigurationError("LISTEN_BACKLOG must be a non-negative integer, got \"-1\"")) {
            try ServerConfiguration.fromEnvironment(["LISTEN_BACKLOG": "-1"])
        }
    }

    /// Counts the reads that reach the socket, the first handler of a pipeline.
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Never
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// Holds every read back, as Hummingbird's accept buffer does once 10 connections wait in it.
    final class HoldReads: ChannelOutboundHandler {
        typealias OutboundIn = Never
        func read(context: ChannelHandlerContext) {}
    }

    @Test("the listening channel asks for the next accepts after every batch, though the accept buffer holds reads back; an accept error pauses it 100 ms")
    func eagerAccept() throws {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        let counter = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(EagerAccept())
        try channel.pipeline.syncOperations.addHandler(HoldReads())
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1), promise: nil)
        #expect(channel.isActive)

        channel.read()   // the accept loop's own read, held back by its buffer
        #expect(counter.reads == 0)
        channel.pipeline.fireChannelReadComplete()   // a batch of connections was accepted
        #expect(counter.reads == 1)
        channel.pipeline.fireChannelReadComplete()
        #expect(counter.reads == 2)

        // Too many open files: no read at once, one 100 ms later.
        channel.pipeline.fireErrorCaught(IOError(errnoCode: EMFILE, reason: "accept"))
        channel.pipeline.fireChannelReadComplete()
        #expect(counter.reads == 2)
        loop.advanceTime(by: .milliseconds(99))
        #expect(counter.reads == 2)
        loop.advanceTime(by: .milliseconds(1))
        #expect(counter.reads == 3)
        _ = try? channel.finish()
    }
}
