import Foundation
import GatewayAssembly
import GatewayServer
import Hummingbird
import HummingbirdTesting
import SocialDomain
import SocialFixtures
import SocialGateway
import Synchronization
import Testing

/// Demand control and rate limits as a client sees them on the wire (issue 42, parts 2 and 3).
@Suite("Demand control and rate limits over HTTP")
struct DemandControlHTTPTests {
    static let followers = #"{ profile(handle: "alice_wonder") { followers(first: 50) { nodes { handle } } } }"#

    /// A gateway whose read bucket holds `capacity` and refills 1 a second on a clock that never moves.
    static func limited(capacity: Int) -> (inout GatewaySettings) -> Void {
        { settings in
            settings.server.gateway.rateLimiter = RateLimiter(
                query: .init(name: "query", capacity: capacity, refillPerSecond: 1),
                mutation: .init(name: "mutation", capacity: capacity, refillPerSecond: 1), now: { 0 })
        }
    }

    @Test("429 with Retry-After, RateLimit-Policy and RateLimit, and TOO_MANY_REQUESTS with retryAfter in the body, under either media type; /metrics counts them")
    func tooManyRequests() async throws {
        let gateway = try await TestGateway.make(.embedded, Self.limited(capacity: 60))
        try await gateway.test(.router) { client in
            let token = try await gateway.bearer("alice_wonder")
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(authorization: token), body: GraphQLBody.json(Self.followers)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.rateLimit] == nil)
            }
            // The same request again would be a cache hit (1 unit); one follower fewer is a miss of 51.
            let other = Self.followers.replacingOccurrences(of: "50", with: "49")
            for accept in ["application/graphql-response+json", "application/json"] {
                try await client.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(accept: accept, authorization: token),
                    body: GraphQLBody.json(other)
                ) { response in
                    #expect(response.status == .tooManyRequests)
                    #expect(response.headers[.retryAfter] == "43")
                    #expect(response.headers[.rateLimitPolicy] == #""query";q=60;w=60"#)
                    #expect(response.headers[.rateLimit] == #""query";r=0;t=43"#)
                    #expect(response.firstErrorCode == "TOO_MANY_REQUESTS")
                    let object = response.json as? [String: Any]
                    let error = (object?["errors"] as? [[String: Any]])?.first
                    #expect((error?["extensions"] as? [String: Any])?["retryAfter"] as? Int == 43)
                    #expect(object?["data"] == nil)
                }
            }
            // /metrics counts the refusals by reason and mode.
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.text.contains(#"social_gateway_demand_refusals_total{reason="rate_limit_query",mode="enforce"} 2"#))
                #expect(response.text.contains(#"social_gateway_demand_refusals_total{reason="cost",mode="enforce"} 0"#))
            }
            // Anonymous requests from this address have their own bucket.
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(), body: GraphQLBody.json(#"{ profile(handle: "alice_wonder") { handle } }"#)
            ) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("extensions.cost over HTTP: asked for in the request's extensions")
    func costOverHTTP() async throws {
        let gateway = try await TestGateway.make(.embedded)
        try await gateway.test(.router) { client in
            let body = try JSONSerialization.data(withJSONObject: ["query": Self.followers, "extensions": ["cost": true]])
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(authorization: try await gateway.bearer("alice_wonder")),
                body: ByteBuffer(bytes: body)
            ) { response in
                #expect(response.status == .ok)
                let cost = ((response.json as? [String: Any])?["extensions"] as? [String: Any])?["cost"] as? [String: Any]
                #expect(cost?["estimated"] as? Int == 52)
                #expect(cost?["max"] as? Int == 10_000)
                #expect(cost?["mode"] as? String == "enforce")
            }
        }
    }

    @Test("COST_MODE, MAX_COST, COST_LIST_SIZE and the RATE_LIMIT_ variables configure demand control; bad values name the variable")
    func settings() throws {
        let configuration = try ServerConfiguration.fromEnvironment([
            "COST_MODE": "measure", "MAX_COST": "500", "COST_LIST_SIZE": "7", "RATE_LIMIT_MODE": "off",
            "RATE_LIMIT_QUERY_CAPACITY": "1000", "RATE_LIMIT_QUERY_PER_SECOND": "100", "RATE_LIMIT_MUTATION_PER_SECOND": "3",
            "RATE_LIMIT_MAX_KEYS": "50",
        ])
        let demand = configuration.gateway.demandControl
        #expect(demand.costMode == .measure)
        #expect(demand.maxCost == 500)
        #expect(demand.defaultListSize == 7)
        #expect(demand.rateLimitMode == .off)
        let limiter = configuration.gateway.rateLimiter
        #expect(limiter?.query == RateLimiter.Policy(name: "query", capacity: 1000, refillPerSecond: 100))
        // The capacity not given keeps its default.
        #expect(limiter?.mutation == RateLimiter.Policy(name: "mutation", capacity: GatewayOptions.mutationRateLimit.capacity, refillPerSecond: 3))
        #expect(limiter?.maxKeys == 50)
        #expect(throws: ConfigurationError("COST_MODE must be enforce, measure or off, got \"strict\"")) {
            try ServerConfiguration.fromEnvironment(["COST_MODE": "strict"])
        }
        #expect(throws: ConfigurationError("RATE_LIMIT_QUERY_PER_SECOND must be a positive integer, got \"0\"")) {
            try ServerConfiguration.fromEnvironment(["RATE_LIMIT_QUERY_PER_SECOND": "0"])
        }
        // The defaults: enforce, 10,000, and the generous buckets.
        let defaults = try ServerConfiguration.fromEnvironment([:])
        #expect(defaults.gateway.demandControl.costMode == .enforce)
        #expect(defaults.gateway.rateLimiter?.query == GatewayOptions.queryRateLimit)
    }
}
