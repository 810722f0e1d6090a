import EmbeddedStore
import Foundation
import GatewayAssembly
import GatewayServer
import Hummingbird
import HummingbirdTesting
import ResponseCache
import SocialDomain
import Testing

/// Health, readiness, metrics, request ids, CORS, the playground page and its demo tokens.
@Suite("Operations")
struct OperationalTests {
    @Test("/healthz is 200 ok; /readyz is 200 ready when the store answers")
    func health() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"status":"ok"}"#)
            }
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"status":"ready"}"#)
            }
        }
    }

    @Test("/metrics exposes social_gateway_store_calls_total by operation and request counts by outcome")
    func metrics() async throws {
        // Store calls as the viewer's own reads make them (memory off: GraphMemoryHTTPTests counts its reads).
        let gateway = try await TestGateway.make(.embedded) { $0.server.gateway.graphMemory = nil }
        try await gateway.test { client in
            _ = try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(),
                body: GraphQLBody.json("{ profile(handle: \"alice_wonder\") { handle } }"))
            _ = try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json("{ nope }"))
            _ = try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(accept: "text/html"), body: GraphQLBody.json("{ nope }"))
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                let text = response.text
                #expect(text.contains("# TYPE social_gateway_store_calls_total counter"))
                #expect(text.contains(#"social_gateway_store_calls_total{operation="profilesByHandle"} 1"#))
                #expect(text.contains(#"social_gateway_graphql_requests_total{outcome="ok"} 1"#))
                #expect(text.contains(#"social_gateway_graphql_requests_total{outcome="request_error"} 1"#))
                #expect(text.contains(#"social_gateway_graphql_requests_total{outcome="http_error"} 1"#))
                #expect(text.contains("social_gateway_graphql_request_duration_seconds_bucket"))
            }
            // A second scrape does not count the same calls twice.
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.text.contains(#"social_gateway_store_calls_total{operation="profilesByHandle"} 1"#))
            }
        }
    }

    @Test("Response cache: a repeated GET answers 304 to If-None-Match with its ETag, and /metrics counts cache hits")
    func cacheConditionalGet() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let uri = "/graphql?query=%7B%20profile(handle%3A%20%22alice_wonder%22)%20%7B%20handle%20%7D%20%7D"
            let preflight: HTTPFields = [.accept: "application/graphql-response+json", HeaderName.graphQLPreflight: "1"]
            var etag = ""
            try await client.execute(uri: uri, method: .get, headers: preflight) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "public, max-age=30")
                etag = response.headers[.eTag] ?? ""
            }
            #expect(etag.hasPrefix("\""))
            try await Task.sleep(for: .milliseconds(200))
            var conditional = preflight
            conditional[.ifNoneMatch] = etag
            try await client.execute(uri: uri, method: .get, headers: conditional) { response in
                #expect(response.status == .notModified)
                #expect(response.headers[.eTag] == etag)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.text.contains("social_gateway_cache_hits_total 1"))
                #expect(response.text.contains("social_gateway_cache_misses_total 1"))
            }
        }
    }

    @Test("issue 53: /metrics shows what the graph memory holds and how it served: profiles, bytes, hits and misses by kind")
    func graphMemoryMetrics() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let card = GraphQLBody.json(#"{ profile(handle: "bob_builder") { handle followers(first: 5) { nodes { handle } } } }"#)
            let headers = HTTPFields.graphQL(authorization: try await gateway.bearer("alice_wonder"))
            for _ in 0..<2 {
                try await client.execute(uri: "/graphql", method: .post, headers: headers, body: card) { response in
                    #expect(response.status == .ok)
                }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let lines = response.text.split(separator: "\n").filter { $0.hasPrefix("social_gateway_graph_memory") }
                func value(_ name: String) -> Double? {
                    lines.first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
                }
                #expect((value("social_gateway_graph_memory_profiles") ?? 0) >= 1, "\(lines)")
                #expect((value("social_gateway_graph_memory_lists") ?? 0) >= 1)
                #expect((value("social_gateway_graph_memory_bytes") ?? 0) > 0)
                #expect(value("social_gateway_graph_memory_answering") == 1)
                #expect(lines.contains { $0.hasPrefix(#"social_gateway_graph_memory_hits_total{kind="profiles"}"#) })
                #expect(lines.contains { $0.hasPrefix(#"social_gateway_graph_memory_misses_total{kind="profiles"}"#) })
            }
        }
    }

    @Test("Response cache off (CACHE=off / --cache off): no ETag, so a repeated GET is answered again, never 304")
    func cacheOff() async throws {
        let gateway = try await TestGateway.make { $0.server.responseCache = false }
        try await gateway.test { client in
            let uri = "/graphql?query=%7B%20profile(handle%3A%20%22alice_wonder%22)%20%7B%20handle%20%7D%20%7D"
            let preflight: HTTPFields = [.accept: "application/graphql-response+json", HeaderName.graphQLPreflight: "1"]
            try await client.execute(uri: uri, method: .get, headers: preflight) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] == nil)
                #expect(response.headers[.cacheControl] == "no-store")
            }
            var conditional = preflight
            conditional[.ifNoneMatch] = "*"
            try await client.execute(uri: uri, method: .get, headers: conditional) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"profile":{"handle":"alice_wonder"}}}"#)
            }
        }
    }

    @Test("X-Request-Id: a sane client id is echoed, a missing or odd one is replaced by a generated id")
    func requestID() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/healthz", method: .get, headers: [HeaderName.requestID: "abc-123"]) { response in
                #expect(response.headers[HeaderName.requestID] == "abc-123")
            }
            try await client.execute(uri: "/healthz", method: .get, headers: [HeaderName.requestID: "bad id\u{7F}"]) { response in
                let id = try #require(response.headers[HeaderName.requestID])
                #expect(UUID(uuidString: id) != nil)
            }
            try await client.execute(uri: "/graphql", method: .delete) { response in
                #expect(response.headers[HeaderName.requestID] != nil)
            }
        }
    }

    @Test("CORS: an allowed origin gets a preflight answer and its origin echoed; others get no CORS headers")
    func cors() async throws {
        let gateway = try await TestGateway.make { $0.server.corsAllowedOrigins = ["https://app.example"] }
        try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .options,
                headers: [.origin: "https://app.example", .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "authorization,content-type"]
            ) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example")
                #expect(response.headers[.accessControlAllowMethods] == "GET, POST, OPTIONS")
                #expect(response.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
            }
            try await client.execute(
                uri: "/graphql", method: .post,
                headers: [.origin: "https://app.example", .contentType: "application/json", .accept: "application/json"],
                body: GraphQLBody.json("{ __typename }")
            ) { response in
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example")
                // The answer's own Vary stays (GraphQL answers vary on Accept-Encoding).
                #expect(response.headers[values: .vary] == ["Accept-Encoding", "Origin"])
            }
            try await client.execute(
                uri: "/graphql", method: .options, headers: [.origin: "https://evil.example", .accessControlRequestMethod: "POST"]
            ) { response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test("Playground: GET / serves the bundled page with no external URL and a strict CSP")
    func playground() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
                let html = response.text
                #expect(html.contains("<title>social-gateway playground</title>"))
                #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"))
            }
        }
    }

    @Test("Playground: demo tokens are served in embedded mode and act as the demo users")
    func demoTokens() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let token = try await client.execute(uri: "/playground/demo-tokens", method: .get) { response -> String in
                #expect(response.status == .ok)
                let users = try #require((response.json as? [String: Any])?["users"] as? [[String: Any]])
                // the demo users, and the showcase's private profile (issue 40)
                #expect(users.map { $0["handle"] as? String } == ["alice_wonder", "bob_builder", "carol_creator", "dana_quiet"])
                return try #require(users[1]["token"] as? String)
            }
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + token), body: GraphQLBody.json("{ viewer { handle } }")
            ) { response in
                #expect(response.text == #"{"data":{"viewer":{"handle":"bob_builder"}}}"#)
            }
            // The served demo has a private profile with alice's pending request: dana sees it.
            let dana = try await client.execute(uri: "/playground/demo-tokens", method: .get) { response -> String in
                let users = try #require((response.json as? [String: Any])?["users"] as? [[String: Any]])
                return try #require(users.last?["token"] as? String)
            }
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + dana),
                body: GraphQLBody.json("{ viewer { isPublic } followRequests { totalCount edges { node { requester { handle } } } } }")
            ) { response in
                #expect(response.text == #"{"data":{"viewer":{"isPublic":false},"followRequests":{"totalCount":1,"edges":[{"node":{"requester":{"handle":"alice_wonder"}}}]}}}"#)
            }
        }
        let closed = try await TestGateway.make { $0.server.demoTokens = false }
        try await closed.test { client in
            try await client.execute(uri: "/playground/demo-tokens", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("Load testing: the constant ceiling routes exist only when asked for; the card-shaped one answers a card's size and headers")
    func ceilingRoute() async throws {
        let off = try await TestGateway.make()
        try await off.test { client in
            try await client.execute(uri: "/__bench/constant", method: .get) { response in #expect(response.status == .notFound) }
            try await client.execute(uri: "/__bench/card-shaped", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .notFound)
            }
        }
        let on = try await TestGateway.make { $0.loadTest.ceilingRoute = true }
        try await on.test { client in
            try await client.execute(uri: "/__bench/constant", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"ok":true}}"#)
            }
            let card = #"{"query":"query ProfileCard($handle: String!) { profile(handle: $handle) { handle } }","variables":{"handle":"user5"}}"#
            try await client.execute(uri: "/__bench/card-shaped", method: .post, body: ByteBuffer(string: card)) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 3370)
                #expect(response.headers[.cacheControl] == "private, max-age=30")
                #expect(response.headers[.eTag]?.count == 66)
                let json = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any]
                #expect((json?["data"] as? [String: Any])?["ok"] as? Bool == true)
            }
        }
    }

    @Test("Configuration: MAX_CONCURRENT_QUERIES sets the bound on queries at once; unset, the store's default (two per core embedded, 64 remote)")
    func concurrentQueries() async throws {
        #expect(try ServerConfiguration.fromEnvironment(["MAX_CONCURRENT_QUERIES": "3"]).gateway.maxConcurrentQueries == 3)
        #expect(try ServerConfiguration.fromEnvironment([:]).gateway.maxConcurrentQueries == nil)
        #expect(throws: ConfigurationError("MAX_CONCURRENT_QUERIES must be a non-negative integer, got \"many\"")) {
            try ServerConfiguration.fromEnvironment(["MAX_CONCURRENT_QUERIES": "many"])
        }
        let embedded = try await TestGateway.make().backend
        #expect(embedded.concurrentQueries == 2 * ProcessInfo.processInfo.activeProcessorCount)
        #expect(GatewayBackend(stores: embedded.stores, jwtSecret: nil, summary: "a remote store").concurrentQueries == 64)
    }

    @Test("Configuration: environment variables fill the configuration; bad values name the variable")
    func environment() throws {
        let configuration = try ServerConfiguration.fromEnvironment([
            "PORT": "9090", "HOST": "0.0.0.0", "DATA_DIR": "/tmp/x", "CORS_ORIGINS": "https://a.example/, https://b.example",
            "MAX_BATCH_SIZE": "5", "INTROSPECTION": "false", "LOG_LEVEL": "debug", "CACHE_MEMORY_BYTES": "1048576",
        ])
        #expect(configuration.port == 9090)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.dataDirectory.path == "/tmp/x")
        #expect(configuration.corsAllowedOrigins == ["https://a.example", "https://b.example"])
        #expect(configuration.maxBatchSize == 5)
        #expect(configuration.gateway.introspection == false)
        #expect(configuration.logLevel == .debug)
        #expect(configuration.cacheMemoryBytes == 1 << 20)
        #expect(configuration.cacheMaxBytes == 64 << 20)
        #expect(try ServerConfiguration.fromEnvironment([:]).cacheMemoryBytes == 64 << 20)
        #expect(try GatewaySettings.fromEnvironment(["PORT": "9090"]).store.isEmbedded)
        #expect(configuration.resolvedPublicURL == "http://127.0.0.1:9090")
        #expect(throws: ConfigurationError("PORT must be a non-negative integer, got \"http\"")) {
            try ServerConfiguration.fromEnvironment(["PORT": "http"])
        }
    }
}
