import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Accounts end to end on the stores with an identity provider (issue 20): the embedded store's
/// own, and Supabase Auth (the fake's GoTrue). The PostgreSQL store has none here.
@Suite("Accounts: sign-up, sign-in, sessions, password change, settings")
struct AccountTests {
    static let payload = "session { accessToken refreshToken tokenType expiresAt } account { id email displayName isVerified settings { videoQuality autoplay } profile { handle } }"
    static var providers: [StoreKind] { StoreKind.allCases.filter { $0 != .postgres } }

    func signIn(_ gateway: GatewayFixture, _ email: String, _ password: String) async throws -> JSONValue {
        try await gateway.run(
            "mutation S($e: String!, $p: String!) { signIn(email: $e, password: $p) { \(Self.payload) } }",
            ["e": .string(email), "p": .string(password)]).json
    }

    func viewer(_ payload: JSONValue?) throws -> Viewer {
        let token = try #require(payload?["session"]?["accessToken"]?.stringValue)
        let id = try #require(payload?["account"]?["id"]?.stringValue.flatMap(UUID.init(parsing:)))
        return .user(id: id, token: token)
    }

    @Test("sign-up -> query as that user -> refresh (old token refused) -> change password (old sessions refused) -> sign-out",
          arguments: providers)
    func lifecycle(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let signUp = try await gateway.run(
                "mutation { signUp(email: \"Dana@Example.com\", password: \"first-password\", handle: \"dana_dyno\") { \(Self.payload) } }")
            let created = signUp.json["data"]?["signUp"]
            #expect(signUp.json["errors"] == nil, "\(signUp.json)")
            #expect(created?["account"]?["email"] == "dana@example.com")
            #expect(created?["account"]?["displayName"] == "dana")
            #expect(created?["account"]?["settings"] == ["videoQuality": "AUTO", "autoplay": true])
            #expect(created?["account"]?["profile"]?["handle"] == "dana_dyno")
            #expect(created?["session"]?["tokenType"] == "bearer")
            #expect(signUp.response.cacheControl == "no-store")
            var dana = try viewer(created)
            // The new user can use every other mutation at once.
            let post = try await gateway.run(#"mutation { createPost(input: {content: "Hello!"}) { post { author { handle } } } }"#, viewer: dana)
            #expect(post.json["data"]?["createPost"]?["post"]?["author"]?["handle"] == "dana_dyno")
            let settings = try await gateway.run(
                "mutation { updateSettings(input: {videoQuality: LOW, autoplay: false}) { settings { videoQuality autoplay } } }", viewer: dana)
            #expect(settings.json["data"]?["updateSettings"]?["settings"] == ["videoQuality": "LOW", "autoplay": false])
            #expect(try await gateway.run("{ account { settings { videoQuality } } }", viewer: dana).json["data"]?["account"]?["settings"]?["videoQuality"] == "LOW")

            // Refresh: the next session's tokens; the refresh token used is used up (checked last:
            // using it again ends the session it belonged to, as a stolen token should).
            let firstRefresh = try #require(created?["session"]?["refreshToken"]?.stringValue)
            let refreshQuery = "mutation R($t: String!) { refreshSession(refreshToken: $t) { session { accessToken refreshToken } } }"
            let refreshed = try await gateway.run(refreshQuery, ["t": .string(firstRefresh)])
            let secondRefresh = try #require(refreshed.json["data"]?["refreshSession"]?["session"]?["refreshToken"]?.stringValue)
            #expect(secondRefresh != firstRefresh)
            dana = .user(id: try #require(dana.userId),
                         token: try #require(refreshed.json["data"]?["refreshSession"]?["session"]?["accessToken"]?.stringValue))

            // A second sign-in (another device), then a password change from the first.
            let other = try await signIn(gateway, "dana@example.com", "first-password")
            let otherRefresh = try #require(other["data"]?["signIn"]?["session"]?["refreshToken"]?.stringValue)
            let change = "mutation C($c: String!, $n: String!, $f: String!) { changePassword(currentPassword: $c, newPassword: $n, confirmPassword: $f) { \(Self.payload) } }"
            let changed = try await gateway.run(change, ["c": "first-password", "n": "second-password", "f": "second-password"], viewer: dana)
            #expect(changed.json["errors"] == nil, "\(changed.json)")
            dana = try viewer(changed.json["data"]?["changePassword"])
            // The other device's refresh is refused; the old password no longer works, the new one does.
            #expect(GatewayFixture.codes(try await gateway.run(refreshQuery, ["t": .string(otherRefresh)]).json) == ["UNAUTHENTICATED"])
            #expect(GatewayFixture.codes(try await signIn(gateway, "dana@example.com", "first-password")) == ["UNAUTHENTICATED"])
            let again = try await signIn(gateway, "dana@example.com", "second-password")
            #expect(again["data"]?["signIn"]?["account"]?["email"] == "dana@example.com")

            // Sign-out: this session's refresh token stops working.
            let current = try #require(changed.json["data"]?["changePassword"]?["session"]?["refreshToken"]?.stringValue)
            #expect(try await gateway.run("mutation { signOut }", viewer: dana).json["data"]?["signOut"] == true)
            #expect(GatewayFixture.codes(try await gateway.run(refreshQuery, ["t": .string(current)]).json) == ["UNAUTHENTICATED"])
            // The first refresh token, used once already, and the second, whose session the
            // password change ended: both refused.
            #expect(GatewayFixture.codes(try await gateway.run(refreshQuery, ["t": .string(firstRefresh)]).json) == ["UNAUTHENTICATED"])
            #expect(GatewayFixture.codes(try await gateway.run(refreshQuery, ["t": .string(secondRefresh)]).json) == ["UNAUTHENTICATED"])
        }
    }

    @Test("seed 002's password-change rules, each with its message, and a wrong current password", arguments: providers)
    func passwordChangeRules(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let signedIn = try await signIn(gateway, "alice@example.com", DemoData.password)
            let alice = try viewer(signedIn["data"]?["signIn"])
            let change = "mutation C($c: String!, $n: String!, $f: String!) { changePassword(currentPassword: $c, newPassword: $n, confirmPassword: $f) { session { accessToken } } }"
            func attempt(_ current: String, _ new: String, _ confirm: String) async throws -> (String, String) {
                let json = try await gateway.run(change, ["c": .string(current), "n": .string(new), "f": .string(confirm)], viewer: alice).json
                let error = json["errors"]?.arrayValue?.first
                return (error?["message"]?.stringValue ?? "", error?["extensions"]?["field"]?.stringValue ?? "")
            }
            #expect(try await attempt("", "long-enough", "long-enough") == ("Enter your current password", "currentPassword"))
            #expect(try await attempt(DemoData.password, "", "") == ("Enter a new password", "newPassword"))
            #expect(try await attempt(DemoData.password, "short", "short") == ("Password must be at least 8 characters", "newPassword"))
            #expect(try await attempt(DemoData.password, DemoData.password, DemoData.password) == ("New password must be different", "newPassword"))
            #expect(try await attempt(DemoData.password, "long-enough", "long-enougH") == ("Passwords don't match", "confirmPassword"))
            #expect(try await attempt("not-my-password", "long-enough", "long-enough") == ("Current password is incorrect.", "currentPassword"))
            // None of them changed anything.
            #expect(try await signIn(gateway, "alice@example.com", DemoData.password)["data"]?["signIn"]?["session"] != nil)
        }
    }

    @Test("bad input: a malformed email, a short password, a taken handle or email, each with its field", arguments: providers)
    func signUpInput(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            func signUp(_ email: String, _ password: String, _ handle: String) async throws -> [String] {
                let json = try await gateway.run(
                    "mutation S($e: String!, $p: String!, $h: String!) { signUp(email: $e, password: $p, handle: $h) { session { accessToken } } }",
                    ["e": .string(email), "p": .string(password), "h": .string(handle)]).json
                return (json["errors"]?.arrayValue ?? []).map {
                    "\($0["extensions"]?["code"]?.stringValue ?? "") \($0["extensions"]?["field"]?.stringValue ?? "")"
                }
            }
            let email = try await signUp("not-an-email", "long-enough", "new_user")
            let password = try await signUp("new@example.com", "short", "new_user")
            let handle = try await signUp("new@example.com", "long-enough", "1bad")
            let takenHandle = try await signUp("new@example.com", "long-enough", "Alice_Wonder")
            let takenEmail = try await signUp("alice@example.com", "long-enough", "new_user")
            #expect(email == ["BAD_USER_INPUT email"])
            #expect(password == ["BAD_USER_INPUT password"])
            #expect(handle == ["BAD_USER_INPUT handle"])
            #expect(takenHandle == ["HANDLE_TAKEN handle"])
            #expect(takenEmail == ["EMAIL_TAKEN email"])
        }
    }

    @Test("sign-in failures: one answer for a wrong password and an unknown email, then TOO_MANY_REQUESTS with the wait",
          arguments: providers)
    func signInFailures(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let wrong = try await signIn(gateway, "alice@example.com", "wrong-password")
            let unknown = try await signIn(gateway, "nobody@example.com", "wrong-password")
            #expect(GatewayFixture.messages(wrong) == ["Invalid email or password"])
            #expect(GatewayFixture.messages(unknown) == GatewayFixture.messages(wrong))
            for _ in 0..<4 { _ = try await signIn(gateway, "alice@example.com", "wrong-password") }
            let limited = try await signIn(gateway, "alice@example.com", DemoData.password)
            #expect(GatewayFixture.codes(limited) == ["TOO_MANY_REQUESTS"])
            let retry = limited["errors"]?.arrayValue?.first?["extensions"]?["retryAfter"]?.intValue ?? 0
            #expect((1...60).contains(retry))
            // Another email is not limited by alice's failures.
            #expect(try await signIn(gateway, "bob@example.com", DemoData.password)["data"]?["signIn"]?["session"] != nil)
        }
    }

    @Test("wrong current passwords in changePassword are limited like failed sign-ins (a stolen token cannot guess on)",
          arguments: providers)
    func changePasswordLimit(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let alice = try viewer(try await signIn(gateway, "alice@example.com", DemoData.password)["data"]?["signIn"])
            let change = "mutation C($c: String!) { changePassword(currentPassword: $c, newPassword: \"long-enough\", confirmPassword: \"long-enough\") { session { accessToken } } }"
            for n in 0..<5 {
                let json = try await gateway.run(change, ["c": .string("guess-\(n)")], viewer: alice).json
                #expect(GatewayFixture.messages(json) == ["Current password is incorrect."])
            }
            let limited = try await gateway.run(change, ["c": .string(DemoData.password)], viewer: alice).json
            #expect(GatewayFixture.codes(limited) == ["TOO_MANY_REQUESTS"])
        }
    }

    @Test("the PostgreSQL store without Supabase Auth answers every account operation with one clear error",
          .enabled(if: StoreKind.allCases.contains(.postgres)))
    func noProviderOnPostgres() async throws {
        try await GatewayFixture.run(.postgres) { gateway in
            let json = try await signIn(gateway, "alice@example.com", DemoData.password)
            #expect(GatewayFixture.codes(json) == ["BACKEND_UNAVAILABLE"])
            #expect(GatewayFixture.messages(json).first?.contains("no identity provider") == true)
        }
    }
}
