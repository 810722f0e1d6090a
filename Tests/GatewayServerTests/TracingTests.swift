import Foundation
import GatewayAssembly
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Logging
import Testing
import Tracing

/// Traces (issue 42): one request's spans, received in-process by the test tracer
/// (``GatewayTestSupport/TestTracing``), named and linked as a collector would show them; the
/// client's `traceparent` as their parent, sent on to Supabase; log lines that name their trace.
@Suite("Tracing", .serialized)
struct TracingTests {
    /// Two levels of a follower graph as alice: the followers page, then each follower's follows.
    static let followerGraph = """
        query FollowerGraph { profile(handle: "alice_wonder") { handle followerCount viewerIsFollowing
          followers(first: 5) { edges { node { handle viewerIsFollowing
            following(first: 3) { edges { node { handle followerCount viewerIsFollowing } } } } } } } }
        """

    /// Sends the follower graph with `headers` added; the status and the request's spans.
    static func tracedGraph(
        _ gateway: TestGateway, traceparent: String? = nil, requestID: String, query: String = followerGraph
    ) async throws -> [FinishedInMemorySpan] {
        _ = TestTracing.tracer
        let bearer = try await gateway.bearer("alice_wonder")
        var headers = HTTPFields.graphQL(authorization: bearer)
        headers[HeaderName.requestID] = requestID
        if let traceparent { headers[HeaderName("traceparent")!] = traceparent }
        let sent = headers
        let status = try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: sent, body: GraphQLBody.json(query)) { $0.status }
        }
        #expect(status == .ok)
        let roots = TestTracing.tracer.memory.finishedSpans.filter {
            $0.operationName == "POST /graphql" && $0.attributes["request_id"]?.toSpanAttribute() == .string(requestID)
        }
        try #require(roots.count == 1, "one server span for request \(requestID), got \(roots.count)")
        return TestTracing.spans(ofTrace: roots[0].traceID)
    }

    static func traced(_ settings: inout GatewaySettings) {
        settings.server.tracing = true
        // Every step of the path on the first request, including the cache's lookup and store,
        // which a viewer's first asking skips when the graph is in memory (``AskedBefore``).
        settings.server.gateway.graphMemory = nil
    }

    /// Tracing on, and the client's `traceparent` trusted as the parent (`TRACING_TRUST_INCOMING`).
    static func tracedTrusting(_ settings: inout GatewaySettings) {
        settings.server.tracing = true
        settings.server.tracingTrustsIncoming = true
    }

    @Test("One request's spans: the server span parents parse, validate, cache lookup and execute; each loader wave is a child of execute")
    func spanTreeOfOneRequest() async throws {
        try await TestGateway.run(.embedded, Self.traced) { gateway in
            let spans = try await Self.tracedGraph(gateway, requestID: "trace-tree-1")
            let root = try #require(spans.first { $0.operationName == "POST /graphql" })
            #expect(root.kind == .server)
            #expect(root.parentSpanID == nil)
            #expect(root.attributes["http.route"]?.toSpanAttribute() == .string("/graphql"))
            #expect(root.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
            func named(_ name: String) -> [FinishedInMemorySpan] { spans.filter { $0.operationName == name } }
            for step in ["graphql.parse", "graphql.validate", "cache.lookup", "graphql.execute"] {
                #expect(named(step).count == 1, "\(step): \(spans.map(\.operationName))")
                #expect(named(step).first?.parentSpanID == root.spanID, "\(step) is a child of the request")
            }
            let execute = try #require(named("graphql.execute").first)
            let waves = spans.filter { $0.operationName.hasPrefix("loader.") }
            #expect(!waves.isEmpty)
            for wave in waves {
                #expect(wave.parentSpanID == execute.spanID, "\(wave.operationName) is a child of execute")
                guard case .int64(let keys)? = wave.attributes["loader.keys"]?.toSpanAttribute() else {
                    Issue.record("\(wave.operationName) has no loader.keys"); continue
                }
                #expect(keys > 0)
            }
            // The graph's two levels: the followers page, then the followers' follow pages.
            #expect(named("loader.followPages").count == 2, "\(waves.map(\.operationName))")
            // The answer is kept in the cache after the response: its span is in the trace too.
            #expect(named("cache.store").first?.parentSpanID == root.spanID)
            // Every span belongs to this request's tree.
            let ids = Set(spans.map(\.spanID))
            for span in spans where span.spanID != root.spanID {
                #expect(span.parentSpanID.map(ids.contains) == true, "\(span.operationName) has its parent in the trace")
            }
        }
    }

    @Test("issue 51: by default a client's sampled traceparent decides nothing: the request starts its own trace (the server's sampler decides), linked to the client's span")
    func clientTraceparentOnlyLinked() async throws {
        let client = TestTracing.newTraceparent()
        try await TestGateway.run(.embedded, Self.traced) { gateway in
            #expect(gateway.configuration.tracingTrustsIncoming == false)
            let spans = try await Self.tracedGraph(gateway, traceparent: client.header, requestID: "trace-untrusted-1")
            let root = try #require(spans.first { $0.operationName == "POST /graphql" })
            #expect(root.traceID != client.traceID)
            #expect(root.parentSpanID == nil)
            #expect(root.links.map { $0.context.inMemorySpanContext?.spanID } == [client.spanID])
            #expect(root.links.map { $0.context.inMemorySpanContext?.traceID } == [client.traceID])
            #expect(TestTracing.spans(ofTrace: client.traceID).isEmpty)
            #expect(spans.count > 3)
        }
        #expect(try ServerConfiguration.fromEnvironment(["TRACING_TRUST_INCOMING": "true"]).tracingTrustsIncoming)
        #expect(try !ServerConfiguration.fromEnvironment([:]).tracingTrustsIncoming)
    }

    @Test("With TRACING_TRUST_INCOMING, a client's traceparent becomes the request span's parent, and the access log names the trace")
    func clientTraceparentIsTheParent() async throws {
        let client = TestTracing.newTraceparent()
        try await TestGateway.run(.embedded, Self.tracedTrusting) { gateway in
            let spans = try await Self.tracedGraph(gateway, traceparent: client.header, requestID: "trace-parent-1")
            let root = try #require(spans.first { $0.operationName == "POST /graphql" })
            #expect(root.traceID == client.traceID)
            #expect(root.parentSpanID == client.spanID)
            #expect(spans.count > 3)
        }
    }

    @Test("Logs: inside a traced request each line carries trace_id and span_id beside request_id")
    func logsJoinTheirTrace() async throws {
        let client = TestTracing.newTraceparent()
        try await TestGateway.run(.embedded, Self.tracedTrusting) { gateway in
            _ = TestTracing.tracer
            var logger = Logger(label: "tracing-log-test") { _ in LoggingTests.RecordingLogHandler() }
            logger.logLevel = .info
            let app = try await buildApplication(
                configuration: gateway.configuration.withSQLiteResponseCache, backend: gateway.backend, logger: logger)
            var headers = HTTPFields.graphQL()
            headers[HeaderName.requestID] = "trace-log-1"
            headers[HeaderName("traceparent")!] = client.header
            let sent = headers
            try await app.test(.router) { http in
                _ = try await http.execute(uri: "/graphql", method: .post, headers: sent, body: GraphQLBody.json("{ __typename }"))
            }
            let access = LoggingTests.RecordingLogHandler.lines.withLock { $0 }.filter {
                $0.hasPrefix("request ") && $0.contains("request_id=trace-log-1")
            }
            #expect(access.count == 1)
            #expect(access.first?.contains("trace_id=\(client.traceID)") == true, "\(access)")
            let root = try #require(TestTracing.spans(ofTrace: client.traceID).first { $0.operationName == "POST /graphql" })
            #expect(access.first?.contains("span_id=\(root.spanID)") == true, "\(access)")
        }
    }

    @Test("Tracing off (the default): no server span, and nothing reaches the tracer")
    func offByDefault() async throws {
        _ = TestTracing.tracer
        let client = TestTracing.newTraceparent()
        try await TestGateway.run(.embedded) { gateway in
            #expect(gateway.configuration.tracing == false)
            var headers = HTTPFields.graphQL(authorization: try await gateway.bearer("alice_wonder"))
            headers[HeaderName("traceparent")!] = client.header
            let sent = headers
            let status = try await gateway.test { http in
                try await http.execute(uri: "/graphql", method: .post, headers: sent, body: GraphQLBody.json(Self.followerGraph)) {
                    $0.status
                }
            }
            #expect(status == .ok)
            #expect(TestTracing.spans(ofTrace: client.traceID).isEmpty)
        }
    }

    @Test("Supabase: every PostgREST request carries the traceparent of its store span, named after the call and path",
          .enabled(if: StoreKind.allCases.contains(.supabase), "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func traceparentReachesPostgREST() async throws {
        let client = TestTracing.newTraceparent()
        try await TestGateway.run(.supabase, Self.traced) { gateway in
            let fake = try #require(gateway.fake)
            let spans = try await Self.tracedGraph(gateway, traceparent: client.header, requestID: "trace-supabase-1")
            let root = try #require(spans.first { $0.operationName == "POST /graphql" })
            let storeSpans = spans.filter { $0.operationName.hasPrefix("supabase ") }
            #expect(!storeSpans.isEmpty, "\(spans.map(\.operationName))")
            let requests = fake.requests.filter { $0.path.hasPrefix("/rest/v1/") }
            #expect(!requests.isEmpty)
            let byID = Dictionary(storeSpans.map { ($0.spanID, $0) }, uniquingKeysWith: { first, _ in first })
            for request in requests {
                let header = try #require(request.headers["traceparent"], "\(request.endpoint) has no traceparent")
                let parts = header.split(separator: "-").map(String.init)
                try #require(parts.count == 4)
                #expect(parts[1] == root.traceID)
                let span = try #require(byID[parts[2]], "\(request.endpoint)'s parent is a supabase span")
                #expect(span.kind == .client)
                #expect(span.attributes["url.path"]?.toSpanAttribute() == .string(request.path))
            }
            for span in storeSpans {
                // Paths only: the query string (ids, filters) is never recorded.
                guard case .string(let path)? = span.attributes["url.path"]?.toSpanAttribute() else {
                    Issue.record("\(span.operationName) has no url.path"); continue
                }
                #expect(!path.contains("?"))
                #expect(spans.first { $0.spanID == span.parentSpanID }?.operationName.hasPrefix("loader.") == true)
            }
        }
    }

    @Test("TracingRequest: OTEL_SDK_DISABLED wins; OTEL_TRACES_EXPORTER decides; else an OTLP endpoint turns traces on")
    func tracingRequestFromEnvironment() throws {
        #expect(!TracingRequest.isRequested([:]))
        #expect(TracingRequest.isRequested(["OTEL_TRACES_EXPORTER": "otlp"]))
        #expect(!TracingRequest.isRequested(["OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"]))
        #expect(TracingRequest.isRequested(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"]))
        #expect(TracingRequest.isRequested(["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"]))
        #expect(!TracingRequest.isRequested(["OTEL_EXPORTER_OTLP_ENDPOINT": ""]))
        #expect(!TracingRequest.isRequested(["OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"]))
        #expect(TracingRequest.isRequested(["OTEL_SDK_DISABLED": "false", "OTEL_TRACES_EXPORTER": "otlp"]))
        #expect(try ServerConfiguration.fromEnvironment(["OTEL_TRACES_EXPORTER": "otlp"]).tracing)
        #expect(try !ServerConfiguration.fromEnvironment([:]).tracing)
    }
}
