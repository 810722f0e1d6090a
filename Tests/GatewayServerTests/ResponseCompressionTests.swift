import CDeflate
import Foundation
import GatewayServer
import Hummingbird
import HummingbirdTesting
import Testing

/// Compressed GraphQL answers (RFC 9110 §8.4 content codings, §12.5.3 Accept-Encoding), decoded
/// here with libdeflate's own gzip and zlib decoders (which check CRC-32, ISIZE and Adler-32).
@Suite("Response compression")
struct ResponseCompressionTests {
    /// Twelve profile cards in one answer: about 2 KB of JSON, over the 1 KiB threshold, cacheable.
    static let bigQuery = "{ " + (0..<12).map { index in
        "p\(index): profile(handle: \"\(["alice_wonder", "bob_builder", "carol_creator"][index % 3])\") { id handle displayName bio avatarURL followerCount followingCount }"
    }.joined(separator: " ") + " }"

    static func headers(_ acceptEncoding: String? = nil) -> HTTPFields {
        var fields = HTTPFields.graphQL()
        if let acceptEncoding { fields[.acceptEncoding] = acceptEncoding }
        return fields
    }

    static func getHeaders(_ acceptEncoding: String? = nil, ifNoneMatch: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.accept: "application/graphql-response+json", HeaderName.graphQLPreflight: "1"]
        if let acceptEncoding { fields[.acceptEncoding] = acceptEncoding }
        if let ifNoneMatch { fields[.ifNoneMatch] = ifNoneMatch }
        return fields
    }

    static let getURI = "/graphql?query=" + bigQuery.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!

    @Test("§8.4.1.3 gzip and §8.4.1.2 deflate (a zlib stream): the answer decodes to exactly the identity body, Content-Length is what is sent")
    func gzipAndDeflateDecode() async throws {
        let gateway = try await TestGateway.make { $0.server.responseCache = false }
        try await gateway.test(.live) { client in
            let identity = try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(), body: GraphQLBody.json(Self.bigQuery))
            #expect(identity.status == .ok)
            #expect(identity.headers[.contentEncoding] == nil)
            #expect(identity.headers[values: .vary].contains("Accept-Encoding"))
            let plain = Array(identity.body.readableBytesView)
            try #require(plain.count >= 1024, "the test answer must be over the threshold")
            #expect(!String(decoding: plain, as: UTF8.self).contains("errors"))

            let gzip = try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("gzip"), body: GraphQLBody.json(Self.bigQuery))
            #expect(gzip.status == .ok)
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(gzip.headers[values: .vary].contains("Accept-Encoding"))
            #expect(gzip.headers[.contentLength] == String(gzip.body.readableBytes))
            #expect(gzip.body.readableBytes * 2 < plain.count)
            #expect(Inflate.gzip(Array(gzip.body.readableBytesView)) == plain)

            let deflate = try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("deflate"), body: GraphQLBody.json(Self.bigQuery))
            #expect(deflate.headers[.contentEncoding] == "deflate")
            #expect(deflate.headers[.contentLength] == String(deflate.body.readableBytes))
            #expect(Inflate.zlib(Array(deflate.body.readableBytesView)) == plain)
            // Not gzip: a zlib stream starts with its CMF byte (deflate, 32 KiB window).
            #expect(deflate.body.readableBytesView.first == 0x78)
        }
    }

    @Test("§12.5.3 Vary: Accept-Encoding on every GraphQL answer, compressed or not: small, request errors, batches")
    func varyAlways() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("gzip"), body: GraphQLBody.json("{ __typename }")) { response in
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.headers[values: .vary] == ["Accept-Encoding"])
                #expect(response.text == #"{"data":{"__typename":"Query"}}"#)
            }
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers(), body: GraphQLBody.json("{ nope }")) { response in
                // A validation error: 422 under application/graphql-response+json (the draft).
                #expect(response.status == .unprocessableContent)
                #expect(response.headers[values: .vary] == ["Accept-Encoding"])
            }
            try await client.execute(
                uri: "/graphql", method: .post, headers: Self.headers("gzip"), body: GraphQLBody.batch([(Self.bigQuery, [:]), ("{ __typename }", [:])])
            ) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(response.headers[values: .vary] == ["Accept-Encoding"])
                let text = String(decoding: Inflate.gzip(Array(response.body.readableBytesView)) ?? [], as: UTF8.self)
                #expect(text.hasPrefix(#"[{"data":{"p0":"#))
                #expect(text.hasSuffix(#"{"data":{"__typename":"Query"}}]"#))
            }
            try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders()) { response in
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.headers[values: .vary] == ["Accept-Encoding"])
            }
        }
    }

    @Test("COMPRESSION_MIN_BYTES: a body under it goes as it is; over it, compressed; identity;q=0 compresses any size (§12.5.3)")
    func threshold() async throws {
        let small = try await TestGateway.make()
        try await small.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("gzip, deflate"), body: GraphQLBody.json("{ __typename }")) { response in
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.text == #"{"data":{"__typename":"Query"}}"#)
            }
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("gzip, identity;q=0"), body: GraphQLBody.json("{ __typename }")) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(Inflate.gzip(Array(response.body.readableBytesView)) == Array(#"{"data":{"__typename":"Query"}}"#.utf8))
            }
        }
        #expect(try ServerConfiguration.fromEnvironment(["COMPRESSION_MIN_BYTES": "16"]).compressionMinBytes == 16)
        #expect(try ServerConfiguration.fromEnvironment([:]).compressionMinBytes == 1024)
        let lowered = try await TestGateway.make { $0.server.compressionMinBytes = 16 }
        try await lowered.test { client in
            try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("gzip"), body: GraphQLBody.json("{ __typename }")) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(Inflate.gzip(Array(response.body.readableBytesView)) == Array(#"{"data":{"__typename":"Query"}}"#.utf8))
            }
        }
    }

    @Test("a cache hit is sent from the cache's stored deflate data, not compressed again, and is byte for byte the miss's representation")
    func cacheHitFromStoredBytes() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            // The miss, deflated for the request.
            let miss = try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("gzip"), body: GraphQLBody.json(Self.bigQuery))
            #expect(try await Self.metric(client, coding: "gzip", source: "compressed") == 1)
            #expect(try await Self.metric(client, coding: "gzip", source: "stored") == 0)
            let missETag = try #require(miss.headers[.eTag])
            #expect(missETag.hasSuffix("-gzip\""))
            let plain = Array(try await client.execute(
                uri: "/graphql", method: .post, headers: Self.headers(), body: GraphQLBody.json(Self.bigQuery)).body.readableBytesView)
            // The answer reaches the cache's memory at once and its deflated copy a moment later
            // (the background store deflates it): ask until a hit is sent from stored bytes.
            var stored = 0
            for _ in 0..<200 where stored == 0 {
                _ = try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("gzip"), body: GraphQLBody.json(Self.bigQuery))
                stored = try await Self.metric(client, coding: "gzip", source: "stored")
                if stored == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(stored >= 1)
            let compressedBefore = try await Self.metric(client, coding: "gzip", source: "compressed")
            for _ in 0..<3 {
                let hit = try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("gzip"), body: GraphQLBody.json(Self.bigQuery))
                #expect(hit.headers[.contentEncoding] == "gzip")
                #expect(hit.headers[.eTag] == missETag)
                #expect(Array(hit.body.readableBytesView) == Array(miss.body.readableBytesView))
                #expect(Inflate.gzip(Array(hit.body.readableBytesView)) == plain)
            }
            #expect(try await Self.metric(client, coding: "gzip", source: "stored") == stored + 3)
            #expect(try await Self.metric(client, coding: "gzip", source: "compressed") == compressedBefore)
            let deflate = try await client.execute(uri: "/graphql", method: .post, headers: Self.headers("deflate"), body: GraphQLBody.json(Self.bigQuery))
            #expect(Inflate.zlib(Array(deflate.body.readableBytesView)) == plain)
            #expect(try await Self.metric(client, coding: "deflate", source: "stored") == 1)
            #expect(try await Self.metric(client, coding: "deflate", source: "compressed") == 0)
        }
    }

    @Test("§8.8.3 a compressed representation has its own ETag; §13.1.2 If-None-Match gives 304 for the representation the request selects")
    func etagsAndNotModified() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            let identity = try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders())
            let tag = try #require(identity.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.contains("-"))
            let gzipTag = String(tag.dropLast()) + "-gzip\""
            let gzip = try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders("gzip"))
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(gzip.headers[.eTag] == gzipTag)

            try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders("gzip", ifNoneMatch: gzipTag)) { response in
                #expect(response.status == .notModified)
                #expect(response.headers[.eTag] == gzipTag)
                #expect(response.headers[values: .vary] == ["Accept-Encoding"])
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders(ifNoneMatch: tag)) { response in
                #expect(response.status == .notModified)
                #expect(response.headers[.eTag] == tag)
            }
            try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders("gzip", ifNoneMatch: "W/" + gzipTag)) { response in
                #expect(response.status == .notModified)
            }
            // The tag of another representation is not a match: the selected one is sent.
            try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders(ifNoneMatch: gzipTag)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.headers[.eTag] == tag)
            }
            try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders("gzip", ifNoneMatch: tag)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentEncoding] == "gzip")
            }
            try await client.execute(uri: Self.getURI, method: .get, headers: Self.getHeaders("deflate", ifNoneMatch: gzipTag)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentEncoding] == "deflate")
                #expect(response.headers[.eTag] == String(tag.dropLast()) + "-deflate\"")
            }
        }
    }

    @Test("streams are not compressed: server-sent events and multipart answers go as they are (and as they come)")
    func streamsUncompressed() async throws {
        let gateway = try await TestGateway.make()
        try await gateway.test { client in
            for accept in ["text/event-stream", #"multipart/mixed;subscriptionSpec="1.0", application/json"#] {
                var headers = HTTPFields.graphQL(accept: accept)
                headers[.acceptEncoding] = "gzip, deflate"
                try await client.execute(uri: "/graphql", method: .post, headers: headers, body: GraphQLBody.json(Self.bigQuery)) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix(accept.prefix(9)) == true, "\(response.headers)")
                    #expect(response.headers[.contentEncoding] == nil)
                    #expect(response.text.contains(#"{"data":{"p0":{"#), "\(response.text.prefix(200))")
                }
            }
        }
    }

    /// The value of `social_gateway_compressed_responses_total{coding, source}` at `/metrics`.
    static func metric(_ client: any TestClientProtocol, coding: String, source: String) async throws -> Int {
        let text = try await client.execute(uri: "/metrics", method: .get).text
        let prefix = "social_gateway_compressed_responses_total{coding=\"\(coding)\",source=\"\(source)\"} "
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return 0 }
        return Int(Double(line.dropFirst(prefix.count)) ?? -1)
    }
}

/// libdeflate's decoders: gzip (checks CRC-32 and ISIZE) and zlib (checks Adler-32).
enum Inflate {
    static func gzip(_ bytes: [UInt8]) -> [UInt8]? { run(bytes, gzip: true) }
    static func zlib(_ bytes: [UInt8]) -> [UInt8]? { run(bytes, gzip: false) }

    private static func run(_ bytes: [UInt8], gzip: Bool) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var result = LIBDEFLATE_BAD_DATA
        let output = [UInt8](unsafeUninitializedCapacity: 1 << 22) { buffer, count in
            var produced = 0
            result = bytes.withUnsafeBytes { input in
                gzip
                    ? libdeflate_gzip_decompress(decompressor, input.baseAddress, input.count, buffer.baseAddress, buffer.count, &produced)
                    : libdeflate_zlib_decompress(decompressor, input.baseAddress, input.count, buffer.baseAddress, buffer.count, &produced)
            }
            count = result == LIBDEFLATE_SUCCESS ? produced : 0
        }
        return result == LIBDEFLATE_SUCCESS ? output : nil
    }
}
