import Foundation
import GatewayAssembly
import GatewayServer
import Hummingbird
import HummingbirdTesting
import SocialDomain
import SocialGateway
import Testing

/// Issue 51, item 1, as a client sees it: the nested introspection is refused over GET as over
/// POST, an answer over `MAX_RESPONSE_BYTES` is `RESPONSE_TOO_LARGE` with the status of its media
/// type, a batch's answers share the bound, and the settings come from the environment.
@Suite("Introspection and response size over HTTP")
struct ResponseLimitHTTPTests {
    /// `__type(name: "Node")` and nine alternating `possibleTypes`/`interfaces` levels.
    static let nested = #"{ __type(name: "Node") { possibleTypes { interfaces { possibleTypes { interfaces { possibleTypes { interfaces { possibleTypes { interfaces { possibleTypes { name fields { name args { name type { name } } type { name kind ofType { name } } } } } } } } } } } } } }"#
    static let schemaQuery = "{ __schema { types { name fields { name type { name } } } } }"

    @Test("issue 51: the nested introspection is refused over a plain GET too (422 QUERY_TOO_COMPLEX)")
    func nestedOverGET() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let query = Self.nested.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            try await client.execute(uri: "/graphql?query=\(query)", method: .get, headers: [.accept: "application/graphql-response+json"]) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.firstErrorCode == "QUERY_TOO_COMPLEX")
                #expect(response.body.readableBytes < 1_000)
            }
        }
    }

    @Test("issue 51: RESPONSE_TOO_LARGE is 422 under application/graphql-response+json, 200 under application/json, with no data")
    func statusPerMediaType() async throws {
        let gateway = try await TestGateway.make { $0.server.gateway.maxResponseBytes = 2_000 }
        try await gateway.test { client in
            for (accept, status) in [("application/graphql-response+json", HTTPResponse.Status.unprocessableContent), ("application/json", .ok)] {
                try await client.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(accept: accept), body: GraphQLBody.json(Self.schemaQuery)
                ) { response in
                    #expect(response.status == status, "\(accept)")
                    #expect(response.firstErrorCode == "RESPONSE_TOO_LARGE")
                    #expect((response.json as? [String: Any])?["data"] == nil)
                    #expect(response.headers[.cacheControl] == nil || response.headers[.cacheControl] == "no-store")
                }
            }
        }
    }

    @Test("issue 51: a batch's answers share MAX_RESPONSE_BYTES: within it each is answered, past it the rest are RESPONSE_TOO_LARGE")
    func batchAsAWhole() async throws {
        let small = #"{ profile(handle: "alice_wonder") { handle displayName } }"#
        let gateway = try await TestGateway.make { $0.server.gateway.maxResponseBytes = 5_000 }
        try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(accept: "application/json"),
                body: GraphQLBody.batch([(small, [:]), (Self.schemaQuery, [:]), (small, [:])])
            ) { response in
                #expect(response.status == .ok)
                let answers = response.json as? [[String: Any]] ?? []
                #expect(answers.count == 3)
                let codes = answers.map { (($0["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["code"] as? String }
                #expect(codes == [nil, "RESPONSE_TOO_LARGE", nil])
                #expect(response.body.readableBytes <= 5_000)
            }
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(accept: "application/json"),
                body: GraphQLBody.batch(Array(repeating: (small, [:]), count: 20))
            ) { response in
                let answers = response.json as? [[String: Any]] ?? []
                #expect(answers.count == 20)
                #expect(answers.allSatisfy { $0["errors"] == nil })
            }
        }
    }

    @Test("issue 51: MAX_RESPONSE_BYTES (default 4 MiB, 0: no bound) and INTROSPECTION (default on, off loopback too)")
    func settings() throws {
        #expect(try ServerConfiguration.fromEnvironment([:]).gateway.maxResponseBytes == 4 << 20)
        #expect(try ServerConfiguration.fromEnvironment(["MAX_RESPONSE_BYTES": "1048576"]).gateway.maxResponseBytes == 1 << 20)
        #expect(try ServerConfiguration.fromEnvironment(["MAX_RESPONSE_BYTES": "0"]).gateway.maxResponseBytes == nil)
        #expect(throws: ConfigurationError("MAX_RESPONSE_BYTES must be a non-negative integer, got \"big\"")) {
            try ServerConfiguration.fromEnvironment(["MAX_RESPONSE_BYTES": "big"])
        }
        #expect(try ServerConfiguration.fromEnvironment(["HOST": "0.0.0.0"]).gateway.introspection)
        #expect(try !ServerConfiguration.fromEnvironment(["HOST": "0.0.0.0", "INTROSPECTION": "false"]).gateway.introspection)
        #expect(GatewayOptions().validation.maxDepth == 15)
    }
}
