import EmbeddedStore
import Foundation
@testable import GatewayServer
import Hummingbird
import HummingbirdTesting
import JWTKit
import SocialDomain
import SocialFixtures
import Synchronization
import Testing

/// What anyone who reaches the port can make the gateway do before (or without) a valid token,
/// and the defaults that keep it safe (docs/SECURITY.md lists each limit and its test here).
@Suite("Security: bounded work before authentication, safe defaults")
struct SecurityTests {
    /// `{"k0":0,"k1":1,...}` with `count` distinct keys.
    static func manyKeys(_ count: Int) -> String {
        "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
    }

    static func expectTooManyValues(_ response: TestResponse, limit: Int) {
        #expect(response.status == .badRequest)
        #expect(response.firstErrorCode == "TOO_MANY_JSON_VALUES")
        #expect(response.firstErrorMessage == "The request's JSON holds more than \(limit) values (object members and array items count one each).")
    }

    @Test("JSON limit: variables with more values than MAX_JSON_VALUES are a 400 over POST, GET and multipart")
    func tooManyJSONValues() async throws {
        let gateway = try await TestGateway.make { $0.server.maxJSONValues = 1_000 }
        let bearer = try await gateway.bearer("alice_wonder")
        let variables = Self.manyKeys(1_000)  // 1,000 members + the object itself + the body's values
        try await gateway.test { client in
            let post = ByteBuffer(string: #"{"query":"{ viewer { id } }","variables":\#(variables)}"#)
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: post) { response in
                Self.expectTooManyValues(response, limit: 1_000)
            }
            let query = "query=%7B%20viewer%20%7B%20id%20%7D%20%7D&variables="
                + variables.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            try await client.execute(
                uri: "/graphql?" + query, method: .get, headers: [.accept: "application/json", HeaderName.graphQLPreflight: "1"]
            ) { response in
                Self.expectTooManyValues(response, limit: 1_000)
            }
            var body = MultipartBody()
            body.field("operations", #"{"query":"mutation($file: Upload!) { uploadAvatar(file: $file) { avatarURL } }","variables":\#(variables)}"#)
            body.field("map", #"{"0":["variables.file"]}"#)
            body.file("0", filename: "me.png", contentType: "image/png", TestImages.png)
            try await client.execute(
                uri: "/graphql", method: .post, headers: UploadTests.headers(body, authorization: bearer), body: body.finished()
            ) { response in
                Self.expectTooManyValues(response, limit: 1_000)
            }
            var map = MultipartBody()
            map.field("operations", #"{"query":"mutation($file: Upload!) { uploadAvatar(file: $file) { avatarURL } }","variables":{"file":null}}"#)
            map.field("map", #"{"0":[\#((0..<1_000).map { _ in "\"variables.file\"" }.joined(separator: ","))]}"#)
            try await client.execute(
                uri: "/graphql", method: .post, headers: UploadTests.headers(map, authorization: bearer), body: map.finished()
            ) { response in
                Self.expectTooManyValues(response, limit: 1_000)
            }
        }
    }

    @Test("JSON limit: a body within the limit, with many distinct keys in variables, runs as usual")
    func manyKeysWithinTheLimit() async throws {
        let gateway = try await TestGateway.make { $0.server.maxJSONValues = 20_000 }
        let body = ByteBuffer(string: #"{"query":"{ profile(handle: \"bob_builder\") { handle } }","variables":\#(Self.manyKeys(15_000))}"#)
        try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: .graphQL(), body: body) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"{"data":{"profile":{"handle":"bob_builder"}}}"#)
            }
        }
    }

    @Test("Multipart map: many paths to the same variable are applied once each, and the upload still works")
    func manyMapPaths() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            var body = MultipartBody()
            body.field("operations", #"{"query":"mutation($file: Upload!) { uploadAvatar(file: $file) { profile { handle } } }","variables":{"file":null,"pad":\#(Self.manyKeys(2_000))}}"#)
            body.field("map", #"{"0":[\#((0..<3_000).map { _ in "\"variables.file\"" }.joined(separator: ","))]}"#)
            body.file("0", filename: "me.png", contentType: "image/png", TestImages.png)
            try await client.execute(
                uri: "/graphql", method: .post, headers: UploadTests.headers(body, authorization: bearer), body: body.finished()
            ) { response in
                #expect(response.text == #"{"data":{"uploadAvatar":{"profile":{"handle":"alice_wonder"}}}}"#)
            }
        }
    }

    @Test("Uploads: past MAX_CONCURRENT_UPLOADS a multipart request is 503 with Retry-After, unread")
    func uploadSlotsFull() async throws {
        let gateway = try await TestGateway.make { $0.server.maxConcurrentUploads = 0 }
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            let body = MultipartBody.avatarUpload(filename: "me.png", contentType: "image/png", data: TestImages.png)
            try await client.execute(
                uri: "/graphql", method: .post, headers: UploadTests.headers(body, authorization: bearer), body: body.finished()
            ) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
                #expect(response.firstErrorCode == "TOO_MANY_UPLOADS")
            }
        }
    }

    @Test("UploadSlots: a slot is taken up to the limit and given back")
    func uploadSlotsCount() {
        let slots = UploadSlots(limit: 2)
        #expect(slots.tryAcquire() && slots.tryAcquire())
        #expect(!slots.tryAcquire())
        slots.release()
        #expect(slots.current == 1)
        #expect(slots.tryAcquire())
    }

    @Test("Uploads: a file is spooled to disk while it streams, and the spool file is gone once answered")
    func spoolIsEmptied() async throws {
        let spool = UploadTests.emptySpoolFolder()
        let gateway = try await TestGateway.make { $0.server.uploadSpoolDirectory = spool }
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            let body = MultipartBody.avatarUpload(filename: "me.png", contentType: "image/png", data: TestImages.png)
            try await client.execute(
                uri: "/graphql", method: .post, headers: UploadTests.headers(body, authorization: bearer), body: body.finished()
            ) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
    }

    @Test("Avatars: an image declaring more than 4096x4096 pixels is refused, whatever its file size")
    func decompressionBomb() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            for (width, height) in [(4097, 10), (10, 50_000)] as [(UInt32, UInt32)] {
                let body = MultipartBody.avatarUpload(filename: "bomb.png", contentType: "image/png", data: TestImages.png(width: width, height: height))
                try await client.execute(
                    uri: "/graphql", method: .post, headers: UploadTests.headers(body, authorization: bearer), body: body.finished()
                ) { response in
                    #expect(response.firstErrorCode == "PAYLOAD_TOO_LARGE")
                    #expect(response.firstErrorMessage == "Image exceeds maximum dimensions of 4096x4096 pixels")
                }
            }
            let edge = MultipartBody.avatarUpload(filename: "edge.png", contentType: "image/png", data: TestImages.png(width: 4096, height: 4096))
            try await client.execute(
                uri: "/graphql", method: .post, headers: UploadTests.headers(edge, authorization: bearer), body: edge.finished()
            ) { response in
                #expect(response.firstErrorCode == nil)
            }
        }
    }

    @Test("Avatars: a replaced avatar's file is deleted once the profile points to the new one")
    func replacedAvatarDeleted() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            var paths: [String] = []
            for _ in 0..<2 {
                let body = MultipartBody.avatarUpload(filename: "me.png", contentType: "image/png", data: TestImages.png)
                let url = try await client.execute(
                    uri: "/graphql", method: .post, headers: UploadTests.headers(body, authorization: bearer), body: body.finished()
                ) { response -> String in
                    let data = try #require((response.json as? [String: Any])?["data"] as? [String: Any])
                    return try #require((data["uploadAvatar"] as? [String: Any])?["avatarURL"] as? String)
                }
                paths.append(String(url.dropFirst("http://gateway.test".count)))
            }
            try await client.execute(uri: paths[0], method: .get) { response in #expect(response.status == .notFound) }
            try await client.execute(uri: paths[1], method: .get) { response in #expect(response.status == .ok) }
        }
        let folder = gateway.store.mediaDirectory.folder(for: .avatar).appendingPathComponent(DemoData.aliceId.uuidString.lowercased())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
    }

    @Test("Demo tokens: on by default on loopback only; off on 0.0.0.0 unless DEMO_TOKENS=true")
    func demoTokenDefaults() async throws {
        for (host, explicit, served) in [("127.0.0.1", nil, true), ("0.0.0.0", nil, false), ("0.0.0.0", true, true), ("127.0.0.1", false, false)]
            as [(String, Bool?, Bool)]
        {
            let gateway = try await TestGateway.make {
                $0.server.host = host
                $0.server.demoTokens = explicit
            }
            try await gateway.test { client in
                try await client.execute(uri: "/playground/demo-tokens", method: .get) { response in
                    #expect(response.status == (served ? .ok : .notFound), "host \(host), DEMO_TOKENS \(String(describing: explicit))")
                }
            }
        }
        #expect(try ServerConfiguration.fromEnvironment(["HOST": "0.0.0.0"]).demoTokensEnabled == false)
        #expect(try ServerConfiguration.fromEnvironment(["HOST": "localhost"]).demoTokensEnabled == true)
        #expect(try ServerConfiguration.fromEnvironment(["HOST": "::", "DEMO_TOKENS": "true"]).demoTokensEnabled == true)
    }

    @Test("Dockerfile: the image listens on 0.0.0.0 with demo tokens off")
    func dockerfileDefaults() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dockerfile = try String(contentsOf: root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        #expect(dockerfile.contains("HOST=0.0.0.0"))
        #expect(dockerfile.contains("DEMO_TOKENS=false"))
    }

    @Test("JWT_SECRET shorter than 32 bytes is refused at start with a clear message")
    func shortSecret() async throws {
        await #expect(throws: ConfigurationError(
            "JWT_SECRET is 5 bytes long; an HS256 secret must be at least 32 bytes (256 bits). Generate one with `openssl rand -hex 32`.")
        ) {
            _ = try await TestGateway.make { $0.server.jwtSecret = "short" }
        }
        _ = try await TestGateway.make { $0.server.jwtSecret = String(repeating: "s", count: 32) }
    }

    @Test("JWT_ISSUER: a token from another issuer, or with none, is 401; the configured issuer's token passes")
    func issuerChecked() async throws {
        let issuer = "https://project.supabase.test/auth/v1"
        let gateway = try await TestGateway.make { $0.server.jwtIssuer = issuer }
        try await AuthenticationTests.expectRejected(
            gateway, authorization: try await gateway.bearer("alice_wonder"), message: #"The token's issuer (iss) is not \"\#(issuer)\"."#)
        let other = await DevTokenIssuer(secret: gateway.backend.jwtSecret!, issuer: "https://evil.test/auth/v1")
        try await AuthenticationTests.expectRejected(
            gateway, authorization: "Bearer " + (try await other.token(for: DemoData.aliceId)),
            message: #"The token's issuer (iss) is not \"\#(issuer)\"."#)
        let right = await DevTokenIssuer(secret: gateway.backend.jwtSecret!, issuer: issuer)
        let token = try await right.token(for: DemoData.aliceId)
        try await gateway.test { client in
            try await client.execute(
                uri: "/graphql", method: .post, headers: .graphQL(authorization: "Bearer " + token), body: AuthenticationTests.viewerQuery
            ) { response in
                #expect(response.text == #"{"data":{"viewer":{"handle":"alice_wonder"}}}"#)
            }
        }
    }

    @Test("JWKS: a burst of tokens with random unknown kids makes one fetch, and none more within the gap")
    func jwksSingleFlight() async throws {
        let fetches = Atomic<Int>(0)
        let cache = JWKSCache(url: URL(string: "https://issuer.test/jwks.json")!) { _ in
            fetches.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(50))
            return Data(#"{"keys":[]}"#.utf8)
        }
        for _ in 0..<2 {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<32 {
                    group.addTask { _ = try? await cache.keys(forKeyID: UUID().uuidString) }
                }
            }
        }
        #expect(fetches.load(ordering: .relaxed) == 1)
    }
}
