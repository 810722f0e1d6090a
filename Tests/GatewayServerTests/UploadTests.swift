import EmbeddedStore
import Foundation
import FoundationNetworking
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import SocialFixtures
import Synchronization
import Testing
#if canImport(FoundationNetworking)
#endif

/// The GraphQL multipart request spec: avatar uploads, limits, CSRF.
@Suite("Uploads")
struct UploadTests {
    static func headers(_ body: MultipartBody, authorization: String?, preflight: Bool = true) -> HTTPFields {
        var fields: HTTPFields = [.contentType: body.contentType, .accept: "application/graphql-response+json"]
        if preflight { fields[HeaderName.graphQLPreflight] = "1" }
        if let authorization { fields[.authorization] = authorization }
        return fields
    }

    @Test("Multipart spec: a valid JPEG becomes the viewer's avatar and is served at its public URL")
    func jpegUpload() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            let body = MultipartBody.avatarUpload(filename: "me.jpg", contentType: "image/jpeg", data: TestImages.jpeg)
            let url = try await client.execute(
                uri: "/graphql", method: .post, headers: Self.headers(body, authorization: bearer), body: body.finished()
            ) { response -> String in
                #expect(response.status == .ok)
                let data = try #require((response.json as? [String: Any])?["data"] as? [String: Any])
                let upload = try #require(data["uploadAvatar"] as? [String: Any])
                let url = try #require(upload["avatarURL"] as? String)
                #expect(url.hasPrefix("http://gateway.test/avatars/\(DemoData.aliceId.uuidString.lowercased())/"))
                #expect(url.hasSuffix(".jpg"))
                #expect((upload["profile"] as? [String: Any])?["avatarURL"] as? String == url)
                return url
            }
            let path = String(url.dropFirst("http://gateway.test".count))
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(Array(response.body.readableBytesView) == TestImages.jpeg)
            }
            try await client.execute(uri: path, method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
            }
            try await client.execute(uri: "/avatars/../dev-jwt-secret", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("Multipart spec over Supabase: a JPEG goes to the avatars bucket in the viewer's folder and is served at its public Storage URL",
          .enabled(if: StoreKind.allCases.contains(.supabase), "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func jpegUploadToSupabase() async throws {
        try await TestGateway.run(.supabase) { gateway in
            let fake = try #require(gateway.fake)
            let bearer = try await gateway.bearer("alice_wonder")
            let alice = DemoData.aliceId.uuidString.lowercased()
            let url = try await gateway.test { client in
                let body = MultipartBody.avatarUpload(filename: "me.jpg", contentType: "image/jpeg", data: TestImages.jpeg)
                return try await client.execute(
                    uri: "/graphql", method: .post, headers: Self.headers(body, authorization: bearer), body: body.finished()
                ) { response -> String in
                    #expect(response.status == .ok)
                    let data = try #require((response.json as? [String: Any])?["data"] as? [String: Any])
                    let upload = try #require(data["uploadAvatar"] as? [String: Any])
                    #expect((upload["profile"] as? [String: Any])?["avatarURL"] as? String == upload["avatarURL"] as? String)
                    return try #require(upload["avatarURL"] as? String)
                }
            }
            #expect(url.hasPrefix("\(fake.url)/storage/v1/object/public/avatars/\(alice)/") && url.hasSuffix(".jpg"))
            let upload = try #require(fake.requests.first { $0.method == "POST" && $0.path.hasPrefix("/storage/") })
            #expect(upload.headers["content-type"] == "image/jpeg")
            #expect(upload.headers["authorization"] == bearer)
            #expect(try await fake.profile(DemoData.aliceId)?.avatarURL == url)
            let (served, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
            #expect(Array(served) == TestImages.jpeg)
        }
    }

    @Test("Multipart spec: a PNG is stored as .png")
    func pngUpload() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("bob_builder")
        try await gateway.test { client in
            let body = MultipartBody.avatarUpload(filename: "me.png", contentType: "image/png", data: TestImages.png)
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(body, authorization: bearer), body: body.finished()) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains(#".png","profile":{"handle":"bob_builder""#))
            }
        }
    }

    @Test("Upload rules: a text file renamed .jpg is UNSUPPORTED_MEDIA_TYPE (the bytes decide, not the name)")
    func renamedTextFile() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            let body = MultipartBody.avatarUpload(filename: "cat.jpg", contentType: "image/jpeg", data: Array("just some text\n".utf8))
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(body, authorization: bearer), body: body.finished()) { response in
                #expect(response.status == .ok)
                #expect(response.firstErrorCode == "UNSUPPORTED_MEDIA_TYPE")
                #expect(response.firstErrorMessage == "Invalid image data provided")
                #expect(response.text.hasSuffix(#""data":null}"#))
            }
        }
    }

    @Test("Limits: a 16 MB file is refused with 413 while it streams; a 6 MB avatar reaches the domain, which refuses it")
    func tooLargeFiles() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test(.live) { client in
            // Past the largest file any mutation takes (a story, 15 MB): cut at the HTTP layer.
            let huge = MultipartBody.avatarUpload(
                filename: "big.jpg", contentType: "image/jpeg", data: TestImages.jpeg + Array(repeating: 0x41, count: 16 * 1024 * 1024))
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(huge, authorization: bearer), body: huge.finished()) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.text == #"{"errors":[{"message":"File exceeds maximum size of 15MB","extensions":{"code":"PAYLOAD_TOO_LARGE"}}]}"#)
            }
        }
        // A new connection: the server closes one whose body it refused mid-stream.
        try await gateway.test(.live) { client in
            // Within it but past an avatar's 5 MB: uploadAvatar's own error, with its field.
            let big = MultipartBody.avatarUpload(
                filename: "big.jpg", contentType: "image/jpeg", data: TestImages.jpeg + Array(repeating: 0x41, count: 6 * 1024 * 1024))
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(big, authorization: bearer), body: big.finished()) { response in
                #expect(response.firstErrorCode == "PAYLOAD_TOO_LARGE")
                #expect(response.firstErrorMessage == "File exceeds maximum size of 5MB")
                #expect(response.text.hasSuffix(#""data":null}"#))
            }
        }
        #expect(gateway.store.callCounts["putAvatar"] == nil)
    }

    @Test("Limits: an oversized file is refused as soon as the limit is passed, without reading the rest")
    func stopsReadingEarly() async throws {
        let chunk = ByteBuffer(bytes: Array(repeating: 0x41, count: 64 * 1024))
        var head = MultipartBody()
        head.field("operations", #"{"query":"mutation($f: Upload!) { uploadAvatar(file: $f) { avatarURL } }","variables":{"f":null}}"#)
        head.field("map", #"{"0":["variables.f"]}"#)
        let boundary = head.boundary
        head.bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"0\"; filename=\"a.jpg\"\r\n\r\n".utf8)
        let pulled = Mutex(0)
        let total = 100  // 6.25 MB of file data
        let stream = AsyncStream<ByteBuffer> { continuation in
            continuation.yield(ByteBuffer(bytes: head.bytes))
            for _ in 0..<total { continuation.yield(chunk) }
            continuation.finish()
        }.map { buffer -> ByteBuffer in
            pulled.withLock { $0 += 1 }
            return buffer
        }
        let limits = MultipartUpload.Limits(maxFieldBytes: 1024 * 1024, maxFileBytes: 5 * 1024 * 1024, maxFiles: 5, maxBatchSize: 20)
        await #expect(throws: GatewayHTTPError.fileTooLarge(limit: 5 * 1024 * 1024)) {
            _ = try await MultipartUpload.read(stream, boundary: boundary, limits: limits)
        }
        #expect(pulled.withLock { $0 } == 1 + 81)  // the head, 80 chunks = 5 MB, and the one that crossed it
    }

    @Test("Multipart spec Security: an upload without a preflight header is refused as possible CSRF")
    func csrf() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let body = MultipartBody.avatarUpload(filename: "me.jpg", contentType: "image/jpeg", data: TestImages.jpeg)
            try await client.execute(
                uri: "/graphql", method: .post, headers: Self.headers(body, authorization: nil, preflight: false), body: body.finished()
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.text == #"{"errors":[{"message":"This request has been blocked as a potential Cross-Site Request Forgery (CSRF). Send a non-empty GraphQL-Preflight (or Apollo-Require-Preflight) header, or a Content-Type other than multipart/form-data, application/x-www-form-urlencoded or text/plain.","extensions":{"code":"CSRF_PREFLIGHT_REQUIRED"}}]}"#)
            }
        }
    }

    @Test("Upload rules: an anonymous upload is refused with 401 before its body is read (nothing spooled)")
    func anonymousUpload() async throws {
        let spool = Self.emptySpoolFolder()
        let gateway = try await TestGateway.make { $0.server.uploadSpoolDirectory = spool }
        try await gateway.test { client in
            let body = MultipartBody.avatarUpload(filename: "me.jpg", contentType: "image/jpeg", data: TestImages.jpeg)
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(body, authorization: nil), body: body.finished()) { response in
                #expect(response.status == .unauthorized)
                #expect(response.firstErrorCode == "UNAUTHENTICATED")
                #expect(response.firstErrorMessage == #"Uploads need a signed-in user: send the request with "Authorization: Bearer <token>"."#)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
    }

    /// A new, empty folder for spooled uploads.
    static func emptySpoolFolder() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("Limits: more files than allowed are refused before any file is read")
    func tooManyFiles() async throws {
        let gateway = try await TestGateway.make { $0.server.maxUploadFiles = 1 }
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            var body = MultipartBody()
            body.field("operations", #"{"query":"mutation($f: Upload!) { uploadAvatar(file: $f) { avatarURL } }","variables":{"f":null}}"#)
            body.field("map", #"{"0":["variables.f"],"1":["variables.f"]}"#)
            body.file("0", filename: "a.jpg", contentType: "image/jpeg", TestImages.jpeg)
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(body, authorization: bearer), body: body.finished()) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.firstErrorMessage == "A request may upload at most 1 file.")
            }
        }
    }

    @Test("Multipart spec: fields out of order, unknown files and missing files are 400 with the reason")
    func malformedMultipart() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test { client in
            var wrongOrder = MultipartBody()
            wrongOrder.field("map", "{}")
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(wrongOrder, authorization: bearer), body: wrongOrder.finished()) { response in
                #expect(response.status == .badRequest)
                #expect(response.firstErrorMessage == #"Invalid multipart request: the first field must be "operations", got "map"."#)
            }
            var missing = MultipartBody()
            missing.field("operations", #"{"query":"mutation($f: Upload!) { uploadAvatar(file: $f) { avatarURL } }","variables":{"f":null}}"#)
            missing.field("map", #"{"0":["variables.f"]}"#)
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(missing, authorization: bearer), body: missing.finished()) { response in
                #expect(response.status == .badRequest)
                #expect(response.firstErrorMessage == #"Invalid multipart request: the map names the file "0", which was not sent."#)
            }
            var unknown = MultipartBody()
            unknown.field("operations", #"{"query":"{ __typename }"}"#)
            unknown.field("map", "{}")
            unknown.file("x", filename: "a.jpg", contentType: "image/jpeg", TestImages.jpeg)
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(unknown, authorization: bearer), body: unknown.finished()) { response in
                #expect(response.status == .badRequest)
                #expect(response.firstErrorMessage == #"Invalid multipart request: the field "x" is not named in the map."#)
            }
        }
    }

    @Test("Multipart spec Batching: map paths carry the operation index")
    func batchedUpload() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("carol_creator")
        try await gateway.test { client in
            var body = MultipartBody()
            body.field("operations", #"[{"query":"{ viewer { handle } }"},{"query":"mutation($f: Upload!) { uploadAvatar(file: $f) { profile { handle } } }","variables":{"f":null}}]"#)
            body.field("map", #"{"0":["1.variables.f"]}"#)
            body.file("0", filename: "a.png", contentType: "image/png", TestImages.png)
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(body, authorization: bearer), body: body.finished()) { response in
                #expect(response.status == .ok)
                #expect(response.text == #"[{"data":{"viewer":{"handle":"carol_creator"}}},{"data":{"uploadAvatar":{"profile":{"handle":"carol_creator"}}}}]"#)
            }
        }
    }

    @Test("Multipart: a part header name with a non-ASCII byte is a 400, and the server goes on (multipart-kit 4.7.1 trapped on it)")
    func nonASCIIHeaderName() async throws {
        let gateway = try await TestGateway.make()
        let bearer = try await gateway.bearer("alice_wonder")
        try await gateway.test(.live) { client in
            var body = MultipartBody()
            body.bytes += Array("--\(body.boundary)\r\nCont".utf8) + [0xE9] + Array("nt-Disposition: form-data; name=\"operations\"\r\n\r\n{}\r\n--\(body.boundary)--\r\n".utf8)
            let response = try await client.execute(
                uri: "/graphql", method: .post, headers: Self.headers(body, authorization: bearer), body: ByteBuffer(bytes: body.bytes))
            #expect(response.status == .badRequest)
            #expect(response.firstErrorMessage == "Invalid multipart request: the body is not valid multipart/form-data: a part header's name is not a token.")
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
        }
    }
}
