import Foundation
import GatewayServer
import Hummingbird
import HummingbirdTesting
import SocialFixtures
import Testing

/// Accounts over HTTP: the status codes and headers a client sees (GraphQL over HTTP).
@Suite("Accounts over HTTP")
struct AccountHTTPTests {
    static func signIn(_ password: String) -> ByteBuffer {
        GraphQLBody.json(
            "mutation S($e: String!, $p: String!) { signIn(email: $e, password: $p) { session { accessToken } } }",
            variables: ["e": "alice@example.com", "p": password])
    }

    @Test("a sign-in answers no-store; past the limit, 429 with Retry-After in graphql-response+json, 200 with the code in json")
    func rateLimitStatus() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test(.router) { client in
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: Self.signIn(DemoData.password)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.text.contains(#""accessToken":"#))
            }
            for _ in 0..<5 {
                try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: Self.signIn("wrong-password")) { response in
                    #expect(response.firstErrorCode == "UNAUTHENTICATED")
                }
            }
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: Self.signIn(DemoData.password)) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.firstErrorCode == "TOO_MANY_REQUESTS")
                let retry = Int(response.headers[.retryAfter] ?? "") ?? 0
                #expect((1...60).contains(retry))
            }
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(accept: "application/json"), body: Self.signIn(DemoData.password)) { response in
                #expect(response.status == .ok)
                #expect(response.firstErrorCode == "TOO_MANY_REQUESTS")
            }
        }
    }
}
