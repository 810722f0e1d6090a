@testable import EmbeddedStore
import Foundation
import GatewayAssembly
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import SocialDomain
import SocialFixtures
import Synchronization
import Testing

/// Issue 37 as an attacker on the network meets it: batches that share one budget, a full hashing
/// queue, ended sessions whose tokens stop at once (on every replica), proxies, one file per
/// field, and a deployed server without demo accounts.
@Suite("Abuse over HTTP: budgets, busy hashing, ended sessions, proxies, uploads, demo data (issue 37)", .serialized)
struct AbuseHTTPTests {
    static let accountProviders: [StoreKind] = [.embedded, .supabase]

    static func signIn(_ email: String, _ password: String) -> ByteBuffer {
        GraphQLBody.json(
            "mutation S($e: String!, $p: String!) { signIn(email: $e, password: $p) { session { accessToken } } }",
            variables: ["e": email, "p": password])
    }

    static let viewerQuery = GraphQLBody.json("{ viewer { handle } }")

    // MARK: Section 1: one password field a request, a bounded hashing queue

    @Test("a batch of 20 resetPassword operations runs one; the other 19 get TOO_MANY_PASSWORD_FIELDS")
    func batchOfResets() async throws {
        let gateway = try await TestGateway.make()
        let before = EmbeddedStore.passwordHashesComputed
        let batch = GraphQLBody.batch((0..<20).map {
            ("mutation { resetPassword(token: \"bogus\($0)\", newPassword: \"new-password-1\") { session { accessToken } } }", [String: Any]())
        })
        try await gateway.test(.router) { client in
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: batch) { response in
                #expect(response.status == .ok)
                let answers = try #require(response.json as? [[String: Any]])
                let codes = answers.map { ((($0["errors"] as? [[String: Any]])?.first?["extensions"]) as? [String: Any])?["code"] as? String }
                #expect(codes.count == 20)
                #expect(codes.first == "UNAUTHENTICATED")
                #expect(codes.dropFirst().allSatisfy { $0 == "TOO_MANY_PASSWORD_FIELDS" })
            }
        }
        #expect(EmbeddedStore.passwordHashesComputed == before)
    }

    @Test("with the hashing queue full, signIn answers 503 with Retry-After and SERVER_BUSY, under either media type")
    func hashingQueueFull() async throws {
        let gateway = try await TestGateway.make()
        let gate = DispatchSemaphore(value: 0)
        let blockers = (0..<PasswordHasher.maxQueued).map { _ in Task { try await PasswordHasher.run { gate.wait() } } }
        while PasswordHasher.depth < PasswordHasher.maxQueued { try await Task.sleep(for: .milliseconds(5)) }
        do {
            try await gateway.test(.router) { client in
                for accept in ["application/graphql-response+json", "application/json"] {
                    try await client.execute(
                        uri: "/graphql", method: .post, headers: .graphQL(accept: accept),
                        body: Self.signIn("alice@example.com", DemoData.password)
                    ) { response in
                        #expect(response.status == .serviceUnavailable)
                        #expect(response.headers[.retryAfter] == "1")
                        #expect(response.firstErrorCode == "SERVER_BUSY")
                    }
                }
            }
        }
        for _ in blockers { gate.signal() }
        for blocker in blockers { try await blocker.value }
    }

    // MARK: Section 4: ended sessions

    @Test("after signOut the session's access token is refused (401), and other sessions go on", arguments: accountProviders)
    func signedOutTokenRefused(_ kind: StoreKind) async throws {
        try await TestGateway.run(kind) { gateway in
            try await gateway.test(.router) { client in
                let first = try await Self.token(client, "alice@example.com", DemoData.password)
                let second = try await Self.token(client, "alice@example.com", DemoData.password)
                try await Self.expectViewer(client, first, status: .ok)
                try await client.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + first),
                    body: GraphQLBody.json("mutation { signOut }")
                ) { response in
                    #expect(response.text.contains(#""signOut":true"#), "\(response.text)")
                }
                try await Self.expectViewer(client, first, status: .unauthorized, message: DomainError.sessionExpired.message)
                try await Self.expectViewer(client, second, status: .ok)
            }
        }
    }

    @Test("after a password change every older session's token is refused; the new session's works", arguments: accountProviders)
    func passwordChangeEndsTokens(_ kind: StoreKind) async throws {
        try await TestGateway.run(kind) { gateway in
            try await gateway.test(.router) { client in
                let other = try await Self.token(client, "bob@example.com", DemoData.password)
                let current = try await Self.token(client, "bob@example.com", DemoData.password)
                // Tokens carry whole seconds (`iat`), and one issued in the very second of a change
                // is not ended (see EndedSessions): change in the next second, as a person would.
                try await Self.waitForNextSecond()
                let change = GraphQLBody.json(
                    "mutation { changePassword(currentPassword: \"\(DemoData.password)\", newPassword: \"bob-new-password\", confirmPassword: \"bob-new-password\") { session { accessToken } } }")
                var fresh = ""
                try await client.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + current), body: change
                ) { response in
                    let data = (response.json as? [String: Any])?["data"] as? [String: Any]
                    fresh = (((data?["changePassword"] as? [String: Any])?["session"]) as? [String: Any])?["accessToken"] as? String ?? ""
                    #expect(!fresh.isEmpty, "\(response.text)")
                }
                try await Self.expectViewer(client, other, status: .unauthorized, message: DomainError.sessionExpired.message)
                try await Self.expectViewer(client, current, status: .unauthorized, message: DomainError.sessionExpired.message)
                try await Self.expectViewer(client, fresh, status: .ok)
                // A later sign-in with the new password is a new session, not an ended one.
                try await Self.expectViewer(client, try await Self.token(client, "bob@example.com", "bob-new-password"), status: .ok)
            }
        }
    }

    @Test("a sign-out on one replica refuses the token on another, through the change feed they share")
    func signOutReachesOtherReplica() async throws {
        let gateway = try await TestGateway.make()
        var backend = gateway.backend
        let feed = LoopbackChangeFeed()
        backend.changeFeed = feed
        let replicaA = try await ServerReplica(gateway: gateway, backend: backend)
        let replicaB = try await ServerReplica(gateway: gateway, backend: backend)
        try await feed.waitForFollowers(2)
        try await replicaA.app.test(.router) { a in
            try await replicaB.app.test(.router) { b in
                let token = try await Self.token(a, "carol@example.com", DemoData.password)
                try await Self.expectViewer(b, token, status: .ok)
                try await a.execute(
                    uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + token),
                    body: GraphQLBody.json("mutation { signOut }")) { #expect($0.status == .ok) }
                try await Self.expectViewer(b, token, status: .unauthorized, message: DomainError.sessionExpired.message)
            }
        }
        replicaA.stop()
        replicaB.stop()
    }

    @Test("a restart forgets no sign-out: the embedded store's ended sessions are refused from the first request")
    func signOutSurvivesRestart() async throws {
        let gateway = try await TestGateway.make()
        let first = try await ServerReplica(gateway: gateway, backend: gateway.backend)
        let token = try await first.app.test(.router) { client -> String in
            let token = try await Self.token(client, "carol@example.com", DemoData.password)
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + token),
                body: GraphQLBody.json("mutation { signOut }")) { #expect($0.status == .ok) }
            return token
        }
        first.stop()
        // A new process on the same data: an empty registry, no feed, only what the store says.
        let restarted = try await ServerReplica(gateway: gateway, backend: gateway.backend)
        try await restarted.app.test(.router) { client in
            try await Self.expectViewer(client, token, status: .unauthorized, message: DomainError.sessionExpired.message)
        }
        restarted.stop()
    }

    // MARK: Section 1: trusted proxies

    @Test("X-Forwarded-For is read only from TRUSTED_PROXIES: per-address limits then see each client apart")
    func trustedProxies() async throws {
        func requestResets(_ configure: @escaping (inout GatewaySettings) -> Void) async throws -> [String?] {
            let gateway = try await TestGateway.make(.embedded, configure)
            return try await gateway.test(.live) { client in
                var codes: [String?] = []
                // 5 reset requests a minute per address: the sixth from one client is refused.
                for forwarded in Array(repeating: "203.0.113.1", count: 6) + ["203.0.113.2"] {
                    var headers = HTTPFields.graphQL()
                    headers[.xForwardedFor] = "\(forwarded), 127.0.0.1"
                    try await client.execute(
                        uri: "/graphql", method: .post, headers: headers,
                        body: GraphQLBody.json("mutation { requestPasswordReset(email: \"nobody@example.com\") }")
                    ) { codes.append($0.firstErrorCode) }
                }
                return codes
            }
        }
        let trusted = try await requestResets { $0.server.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1") }
        #expect(trusted == [nil, nil, nil, nil, nil, "TOO_MANY_REQUESTS", nil])
        // Without a trusted proxy the header is ignored: every request is the peer's, 127.0.0.1.
        let untrusted = try await requestResets { _ in }
        #expect(untrusted == [nil, nil, nil, nil, nil, "TOO_MANY_REQUESTS", "TOO_MANY_REQUESTS"])
    }

    // MARK: Section 3: one upload, one field

    @Test("one uploaded file backs one field: ten aliased createStory fields make one story, the rest BAD_USER_INPUT")
    func oneFileOneField() async throws {
        let gateway = try await TestGateway.make()
        let fields = (0..<10).map { "s\($0): createStory(file: $file) { story { id } }" }.joined(separator: " ")
        var body = MultipartBody()
        body.field("operations", #"{"query":"mutation($file: Upload!) { \#(fields) }","variables":{"file":null}}"#)
        body.field("map", #"{"0":["variables.file"]}"#)
        body.file("0", filename: "story.png", contentType: "image/png", TestImages.png)
        let (contentType, payload) = (body.contentType, body.finished())
        let before = try await gateway.store.activeStories(viewer: .user(id: DemoData.aliceId, token: "t")).count
        try await gateway.test(.router) { client in
            var headers: HTTPFields = [.contentType: contentType, .accept: "application/graphql-response+json", .graphQLPreflight: "1"]
            headers[.authorization] = try await gateway.bearer("alice_wonder")
            try await client.execute(uri: "/graphql", method: .post, headers: headers, body: payload) { response in
                let errors = ((response.json as? [String: Any])?["errors"] as? [[String: Any]]) ?? []
                #expect(errors.count == 9, "\(response.text)")
                #expect(errors.allSatisfy { ($0["message"] as? String)?.contains("already used by another field") == true })
            }
        }
        let after = try await gateway.store.activeStories(viewer: .user(id: DemoData.aliceId, token: "t")).count
        #expect(after == before + 1)
    }

    @Test("one uploaded file mapped into two operations of a batch is used by the first only")
    func oneFileOneBatchField() async throws {
        let gateway = try await TestGateway.make()
        let operation = #"{"query":"mutation($file: Upload!) { createStory(file: $file) { story { id } } }","variables":{"file":null}}"#
        var body = MultipartBody()
        body.field("operations", "[\(operation),\(operation)]")
        body.field("map", #"{"0":["0.variables.file","1.variables.file"]}"#)
        body.file("0", filename: "story.png", contentType: "image/png", TestImages.png)
        let (contentType, payload) = (body.contentType, body.finished())
        try await gateway.test(.router) { client in
            var headers: HTTPFields = [.contentType: contentType, .accept: "application/graphql-response+json", .graphQLPreflight: "1"]
            headers[.authorization] = try await gateway.bearer("alice_wonder")
            try await client.execute(uri: "/graphql", method: .post, headers: headers, body: payload) { response in
                let answers = try #require(response.json as? [[String: Any]], "\(response.text)")
                #expect(answers.count == 2)
                #expect(answers[0]["errors"] == nil, "\(response.text)")
                let second = (answers[1]["errors"] as? [[String: Any]])?.first
                #expect(((second?["extensions"] as? [String: Any])?["code"] as? String) == "BAD_USER_INPUT")
            }
        }
    }

    // MARK: Section 2: demo accounts

    @Test("a server on a non-loopback address has no demo accounts unless SEED_DEMO_DATA=true says so")
    func noDemoAccountsWhenDeployed() async throws {
        // `.router` tests open no socket: nothing listens on 0.0.0.0.
        let deployed = try await TestGateway.make { $0.server.host = "0.0.0.0" }
        try await deployed.test(.router) { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(), body: Self.signIn("alice@example.com", DemoData.password)
            ) { response in
                #expect(response.firstErrorCode == "UNAUTHENTICATED")
            }
        }
        var settings = GatewaySettings()
        settings.server.host = "0.0.0.0"
        #expect(!settings.demoDataEnabled)
        #expect(!settings.resetLinksLogged)
        settings.store.seedDemoData = true
        #expect(settings.demoDataEnabled)
        settings.server.host = "127.0.0.1"
        settings.store.seedDemoData = nil
        #expect(settings.demoDataEnabled && settings.resetLinksLogged)
        #expect(try StoreSettings.fromEnvironment(["SEED_DEMO_DATA": "false"]).seedDemoData == false)
    }

    @Test("a data folder seeded on loopback, then served publicly without demo data, no longer signs anyone in as alice")
    func demoPasswordLockedOnPublicStart() async throws {
        let local = try await TestGateway.make()
        let folder = local.configuration.dataDirectory
        await local.shutdown()
        let deployed = try await TestGateway.make {
            $0.server.host = "0.0.0.0"
            $0.server.dataDirectory = folder
        }
        try await deployed.test(.router) { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(), body: Self.signIn("alice@example.com", DemoData.password)
            ) { response in
                #expect(response.firstErrorCode == "UNAUTHENTICATED")
            }
        }
        _ = local
    }

    @Test("the Dockerfile turns demo data and logged reset links off")
    func dockerfileDefaults() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dockerfile = try String(contentsOf: root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        #expect(dockerfile.contains("SEED_DEMO_DATA=false"))
        #expect(dockerfile.contains("RESET_LINKS_IN_LOG=false"))
    }

    // MARK: Helpers

    /// Signs in and returns the access token.
    static func token(_ client: any TestClientProtocol, _ email: String, _ password: String) async throws -> String {
        try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: signIn(email, password)) { response in
            let data = (response.json as? [String: Any])?["data"] as? [String: Any]
            let token = (((data?["signIn"] as? [String: Any])?["session"]) as? [String: Any])?["accessToken"] as? String
            return try #require(token, "\(response.text)")
        }
    }

    /// Sleeps into the next whole second of the wall clock (at most one second).
    static func waitForNextSecond() async throws {
        let now = Date().timeIntervalSince1970
        try await Task.sleep(for: .milliseconds(Int((now.rounded(.down) + 1 - now) * 1000) + 20))
    }

    static func expectViewer(
        _ client: any TestClientProtocol, _ token: String, status: HTTPResponse.Status, message: String? = nil
    ) async throws {
        try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + token), body: viewerQuery) { response in
            #expect(response.status == status, "\(response.text)")
            if let message { #expect(response.firstErrorMessage == message) }
        }
    }
}

/// One replica: an application over a shared backend, with its own services (the change stream).
struct ServerReplica {
    let app: any ApplicationProtocol
    let services: Task<Void, Never>

    init(gateway: TestGateway, backend: GatewayBackend) async throws {
        let background = BackgroundServices()
        // A process of its own would have its own registry: nothing shared but the feed.
        var configuration = gateway.configuration
        configuration.gateway.endedSessions = EndedSessions()
        app = try await buildApplication(
            configuration: configuration.withSQLiteResponseCache, backend: backend, logger: TestGateway.logger(configuration), background: background)
        services = Task {
            await withTaskGroup(of: Void.self) { group in
                for service in background.all { group.addTask { try? await service.run() } }
            }
        }
    }

    func stop() { services.cancel() }
}

/// A change feed in memory shared by the replicas of one test: what one announces, all hear.
final class LoopbackChangeFeed: ChangeFeed {
    private let followers = Mutex<[@Sendable (ChangeFeedEvent) async -> Void]>([])

    func follow(_ deliver: @escaping @Sendable (ChangeFeedEvent) async -> Void) async {
        followers.withLock { $0.append(deliver) }
        await deliver(.connected)
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
    }

    func announce(_ end: SessionEnd) async throws {
        for deliver in followers.withLock({ $0 }) { await deliver(.sessionsEnded([end])) }
    }

    func waitForFollowers(_ count: Int) async throws {
        while followers.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(5)) }
    }
}
