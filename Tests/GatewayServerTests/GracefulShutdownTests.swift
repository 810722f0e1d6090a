import Foundation
import GatewayAssembly
import GatewayServer
import GatewayTestSupport
import Logging
import ServiceLifecycle
import Testing

/// A graceful shutdown (SIGTERM, SIGINT) as a load balancer and a client in flight see it.
@Suite("Graceful shutdown")
struct GracefulShutdownTests {
    static func rawRequest(port: Int, _ head: String, body: String = "") async throws -> String {
        try await RawConnection.run {
            let connection = try RawConnection(port: port, ioTimeout: 20)
            try connection.send(head + body)
            return String(decoding: connection.readToEnd().bytes, as: UTF8.self)
        }
    }

    @Test("Shutdown: /readyz turns 503 first, a request in flight on a slow store finishes with its answer, then the server stops",
          .enabled(if: StoreKind.allCases.contains(.supabase), "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func inFlightRequestFinishes() async throws {
        try await TestGateway.run(.supabase, {
            $0.server.shutdownDrainDelay = .milliseconds(700)
            $0.server.responseCache = false
        }) { gateway in
            let fake = try #require(gateway.fake)
            let (ports, listening) = AsyncStream.makeStream(of: Int.self)
            let group = try await makeServiceGroup(
                configuration: gateway.configuration.withSQLiteResponseCache, backend: gateway.backend,
                logger: TestGateway.logger(gateway.configuration), gracefulShutdownSignals: [],
                onListening: { listening.yield($0) })
            let running = Task { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            let before = try await Self.rawRequest(port: port, "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(before.hasPrefix("HTTP/1.1 200 OK"))

            fake.latency = .milliseconds(1500)
            let body = #"{"query":"{ profile(handle: \"alice_wonder\") { handle } }"}"#
            let inFlight = Task {
                try await Self.rawRequest(
                    port: port,
                    "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n",
                    body: body)
            }
            try await Task.sleep(for: .milliseconds(300))   // the request now waits on the store
            await group.triggerGracefulShutdown()
            try await Task.sleep(for: .milliseconds(100))
            let draining = try await Self.rawRequest(port: port, "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(draining.hasPrefix("HTTP/1.1 503"))
            #expect(draining.hasSuffix(#"{"status":"draining"}"#))

            let answer = try await inFlight.value
            #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
            #expect(answer.hasSuffix(#"{"data":{"profile":{"handle":"alice_wonder"}}}"#))
            try await running.value
            #expect(throws: RawConnectionError.self, "nothing listens once the group has returned") {
                _ = try RawConnection(port: port)
            }
        }
    }

    @Test("Shutdown completes a live subscription (event: complete) and the server stops without waiting for the grace period (issue 39)")
    func subscriptionCompleted() async throws {
        try await TestGateway.run(.embedded, { $0.server.shutdownGracePeriod = .seconds(20) }) { gateway in
            let (ports, listening) = AsyncStream.makeStream(of: Int.self)
            let group = try await makeServiceGroup(
                configuration: gateway.configuration.withSQLiteResponseCache, backend: gateway.backend,
                logger: TestGateway.logger(gateway.configuration), gracefulShutdownSignals: [],
                onListening: { listening.yield($0) })
            let running = Task { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            let token = try await gateway.bearer("alice_wonder")
            let body = #"{"query":"subscription { feedPosts { id } }"}"#
            let stream = Task {
                try await Self.rawRequest(
                    port: port,
                    "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n"
                        + "Authorization: \(token)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n",
                    body: body)
            }
            try await Task.sleep(for: .milliseconds(500))   // the stream is open and waiting
            let started = ContinuousClock.now
            await group.triggerGracefulShutdown()
            let answer = try await stream.value
            #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
            #expect(answer.contains("text/event-stream"))
            #expect(answer.contains("event: complete\ndata:\n\n"), "\(answer)")
            try await running.value
            #expect(ContinuousClock.now - started < .seconds(10), "the shutdown waited for the stream")
        }
    }
}
