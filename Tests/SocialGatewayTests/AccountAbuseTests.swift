import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Issue 37, section 1: no unauthenticated request buys unbounded work, on every store with an
/// identity provider (the embedded store's own accounts, and Supabase Auth through the fake).
@Suite("Accounts under abuse: one password field a request, reserved attempts, per-address policy (issue 37)")
struct AccountAbuseTests {
    static var providers: [StoreKind] { StoreKind.allCases.filter { $0 != .postgres } }

    static func signIn(email: String = "alice@example.com", _ password: String) -> (String, JSONObject) {
        ("mutation S($e: String!, $p: String!) { signIn(email: $e, password: $p) { session { accessToken } } }",
         ["e": .string(email), "p": .string(password)])
    }

    @Test("50 aliased resetPassword fields: one runs (an unknown token, refused), 49 are refused unrun; no hash",
          arguments: providers)
    func aliasedResets(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let fields = (0..<50).map { "r\($0): resetPassword(token: \"bogus\($0)\", newPassword: \"new-password-\($0)\") { session { accessToken } }" }
            let before = EmbeddedStore.passwordHashesComputed
            let json = try await gateway.run("mutation { \(fields.joined(separator: " ")) }").json
            let codes = GatewayFixture.codes(json)
            #expect(codes.count == 50)
            #expect(codes.filter { $0 == "TOO_MANY_PASSWORD_FIELDS" }.count == 49)
            #expect(codes.first == "UNAUTHENTICATED")
            #expect(GatewayFixture.messages(json).first == DomainError.sessionExpired.message)
            #expect(EmbeddedStore.passwordHashesComputed == before)
        }
    }

    @Test("the operations of one request share its budget: a second password field is refused, whatever its operation")
    func budgetSharedByOperations() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let budget = RequestBudget()
            let (query, variables) = Self.signIn(DemoData.password)
            let first = try await gateway.run(query, variables, budget: budget).json
            #expect(first["data"]?["signIn"]?["session"] != nil)
            let second = try await gateway.run(
                "mutation { signUp(email: \"eve@example.com\", password: \"eve-password\", handle: \"eve_e\") { session { accessToken } } }",
                budget: budget).json
            #expect(GatewayFixture.codes(second) == ["TOO_MANY_PASSWORD_FIELDS"])
            #expect(GatewayFixture.messages(second).first?.hasPrefix("signUp was not run") == true)
        }
    }

    @Test("issue 51: reset requests (with sign-ups, 5 a minute) count per IPv6 /64, per IPv4 address")
    func perAddressGroups() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let ask = "mutation ($e: String!) { requestPasswordReset(email: $e) }"
            var answers: [String: [String]] = [:]
            let addresses = (1...5).map { "2001:db8:a:b::\($0)" } + ["2001:db8:a:b:ffff::9", "2001:db8:a:c::1"]
                + (2...4).map { "127.0.0.\($0)" }
            for address in addresses {
                let (_, json) = try await gateway.run(ask, ["e": "nobody@example.com"], clientAddress: address)
                answers[address] = GatewayFixture.codes(json)
            }
            for n in 1...5 { #expect(answers["2001:db8:a:b::\(n)"] == [], "\(n)") }
            // The sixth of the /64, whatever its low 64 bits.
            #expect(answers["2001:db8:a:b:ffff::9"] == ["TOO_MANY_REQUESTS"])
            #expect(answers["2001:db8:a:c::1"] == [])
            // 127.0.0.2, .3 and .4 are three callers, as IPv4 addresses stay.
            for n in 2...4 { #expect(answers["127.0.0.\(n)"] == [], "\(n)") }
        }
    }

    @Test("12 wrong passwords for one email at once: at most 5 are tested, the rest TOO_MANY_REQUESTS", arguments: providers)
    func concurrentGuessesReserved(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let (query, _) = Self.signIn("")
            let codes = try await withThrowingTaskGroup(of: [String].self) { group in
                for n in 0..<12 {
                    group.addTask {
                        let variables: JSONObject = ["e": "alice@example.com", "p": .string("wrong-password-\(n)")]
                        return GatewayFixture.codes(try await gateway.run(query, variables, clientAddress: "198.51.100.7").json)
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(codes.filter { $0 == "UNAUTHENTICATED" }.count == 5)
            #expect(codes.filter { $0 == "TOO_MANY_REQUESTS" }.count == 7)
        }
    }

    @Test("a flood of failures from one address locks that address out, not the owner signing in from another",
          arguments: providers)
    func ownerNotLockedOut(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let (query, wrong) = Self.signIn("wrong-password")
            for _ in 0..<8 { _ = try await gateway.run(query, wrong, clientAddress: "203.0.113.66") }
            let (_, right) = Self.signIn(DemoData.password)
            let attacker = try await gateway.run(query, right, clientAddress: "203.0.113.66").json
            #expect(GatewayFixture.codes(attacker) == ["TOO_MANY_REQUESTS"])
            let owner = try await gateway.run(query, right, clientAddress: "192.0.2.10").json
            #expect(owner["data"]?["signIn"]?["session"]?["accessToken"]?.stringValue != nil, "\(owner)")
        }
    }

    @Test("the per-email limit bounds guesses spread over many addresses (100 in 10 minutes)")
    func perEmailLimitAcrossAddresses() async throws {
        let limits = AccountLimits(failedSignInsPerEmail: AttemptLimiter(limit: 6, window: .seconds(600)))
        var options = GatewayOptions()
        options.accountLimits = limits
        try await GatewayFixture.run(.embedded, options: options) { gateway in
            let (query, wrong) = Self.signIn("wrong-password")
            for n in 0..<6 { _ = try await gateway.run(query, wrong, clientAddress: "203.0.113.\(n)") }
            let next = try await gateway.run(query, wrong, clientAddress: "203.0.113.99").json
            #expect(GatewayFixture.codes(next) == ["TOO_MANY_REQUESTS"])
        }
    }

    @Test("resetPassword is limited per client address: 10 a minute, then TOO_MANY_REQUESTS with retryAfter",
          arguments: providers)
    func resetsPerAddress(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let reset = "mutation R($t: String!) { resetPassword(token: $t, newPassword: \"new-password-1\") { session { accessToken } } }"
            for n in 0..<10 {
                let json = try await gateway.run(reset, ["t": .string("bogus-\(n)")], clientAddress: "198.51.100.20").json
                #expect(GatewayFixture.codes(json) == ["UNAUTHENTICATED"])
            }
            let limited = try await gateway.run(reset, ["t": "bogus-10"], clientAddress: "198.51.100.20").json
            #expect(GatewayFixture.codes(limited) == ["TOO_MANY_REQUESTS"])
            #expect((limited["errors"]?.arrayValue?.first?["extensions"]?["retryAfter"]?.intValue ?? 0) >= 1)
            let other = try await gateway.run(reset, ["t": "bogus-11"], clientAddress: "198.51.100.21").json
            #expect(GatewayFixture.codes(other) == ["UNAUTHENTICATED"])
        }
    }
}
