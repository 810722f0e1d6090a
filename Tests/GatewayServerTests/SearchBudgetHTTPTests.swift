import Foundation
import GatewayServer
import Hummingbird
import HummingbirdTesting
import SocialDomain
import SocialGateway
import Testing

/// Issue 51's request over HTTP: one batch of 20 operations of 50 aliased searches each used to
/// run 1,000 searches (7.8-10.3 s of CPU at 10,000 profiles, before the indexes).
@Suite("Searches per HTTP request (issue 51)")
struct SearchBudgetHTTPTests {
    @Test("a batch of 20 operations of 50 aliased searches runs 10 searches; the 990 others are TOO_MANY_SEARCHES: the batch shares one budget")
    func batchOfSearches() async throws {
        let gateway = try await TestGateway.make()
        let operations = (0..<20).map { op in
            ("{ " + (0..<50).map { "s\($0): searchProfiles(query: \"user\(op * 50 + $0)\") { nodes { handle } }" }.joined(separator: " ") + " }",
             [String: Any]())
        }
        let body = GraphQLBody.batch(operations)
        let headers = HTTPFields.graphQL(authorization: try await gateway.bearer("alice_wonder"))
        let before = gateway.store.callCounts["searchProfiles"] ?? 0
        try await gateway.test(.router) { client in
            try await client.execute(uri: "/graphql", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .ok)
                let answers = try #require(response.json as? [[String: Any]])
                #expect(answers.count == 20)
                let codes = answers.flatMap { ($0["errors"] as? [[String: Any]] ?? []).compactMap { ($0["extensions"] as? [String: Any])?["code"] as? String } }
                #expect(codes.count == 990)
                #expect(Set(codes) == ["TOO_MANY_SEARCHES"])
            }
        }
        #expect((gateway.store.callCounts["searchProfiles"] ?? 0) - before == 10)
    }
}
