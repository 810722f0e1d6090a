import CDeflate
import HTTPTypes
import Hummingbird
import Prometheus
import SocialGateway

/// Compresses GraphQL answers for clients that accept it (RFC 9110 §8.4, §12.5.3): `gzip` or
/// `deflate`, for bodies of at least ``minimumBytes``, with `Vary: Accept-Encoding` on every
/// answer it sees, compressed or not, so that shared caches keep the representations apart.
///
/// An answer from the response cache comes with its stored zlib stream (``DeflatedBody``): it is
/// sent as it is for `deflate`, and re-framed (no compression) for `gzip`, so a compressed hit
/// costs no more CPU than an uncompressed one. Other answers are deflated here, at the same
/// level as the cache stores (``DeflatedBody/level``), so the bytes of a representation are the
/// same whether it came from the cache or not.
///
/// ETags: a compressed representation carries the identity one's tag with `-gzip` or `-deflate`
/// inside the quotes (`"<sha-256>-gzip"`), strong, since its bytes are a function of the body
/// alone. A representation must not share a strong tag with another (RFC 9110 §8.8.3), and a
/// weak one would tell a cache less while `If-None-Match` (weak comparison) matches alike.
///
/// Not compressed: streams (server-sent events, multipart subscriptions, WebSocket; they never
/// come here), `304`, `HEAD`, bodies under the threshold, answers that already have a
/// `Content-Encoding`.
///
/// ```swift
/// let accept = AcceptEncoding(request.headers[.acceptEncoding])
/// return compression.response(status: .ok, headers: headers, body: bytes, stored: result.deflatedBody, accept: accept, method: request.method)
/// ```
struct ResponseCompression: Sendable {
    /// Bodies shorter than this go out as they are (`COMPRESSION_MIN_BYTES`; see
    /// ``ServerConfiguration/compressionMinBytes`` for why 1 KiB).
    let minimumBytes: Int
    /// `social_gateway_compressed_responses_total{coding, source}`: `stored` answers were sent
    /// from the cache's deflated bytes, `compressed` ones were deflated for the request.
    private let counters: [ContentCoding: (stored: Counter, compressed: Counter)]

    init(minimumBytes: Int, metrics: GatewayMetrics? = nil) {
        self.minimumBytes = minimumBytes
        var counters: [ContentCoding: (stored: Counter, compressed: Counter)] = [:]
        if let metrics {
            for coding in [ContentCoding.gzip, .deflate] {
                let counter = { (source: String) in
                    metrics.registry.makeCounter(
                        descriptor: MetricNameDescriptor(
                            namespace: "social_gateway", metricName: "compressed_responses", unitName: "total",
                            helpText: "GraphQL answers sent compressed, by coding and by source: the cache's stored bytes, or compressed for the request."),
                        labels: [("coding", coding.rawValue), ("source", source)])
                }
                counters[coding] = (counter("stored"), counter("compressed"))
            }
        }
        self.counters = counters
    }

    /// The coding an answer of `bodyCount` bytes goes out in for `accept`, or nil for identity.
    ///
    /// Under the threshold only when the client refuses identity (`identity;q=0`): then a coding
    /// it takes is better than an answer it said it cannot use.
    func coding(for accept: AcceptEncoding, bodyCount: Int, method: HTTPRequest.Method) -> ContentCoding? {
        guard method != .head, let coding = accept.preferred else { return nil }
        guard bodyCount >= minimumBytes || !accept.acceptsIdentity else { return nil }
        return coding
    }

    /// The tag of the representation in `coding`: the identity tag with `-<coding>` inside its
    /// quotes (a weak tag stays weak).
    static func etag(_ etag: String, coding: ContentCoding?) -> String {
        guard let coding, etag.utf8.last == UInt8(ascii: "\""), let open = String(etag.utf8.dropLast()) else { return etag }
        return open + "-" + coding.rawValue + "\""
    }

    /// The response for a whole answer: `headers` as given plus `Vary: Accept-Encoding` and the
    /// ETag, and, when ``coding(for:bodyCount:method:)`` says so, the body in that coding with
    /// `Content-Encoding` and the ETag of that representation. `Content-Length` is the length
    /// sent (the body's).
    ///
    /// Fields are appended, never looked up by name: a lookup in `HTTPFields` builds its index,
    /// which cost a cached card's answer more than sending it from the stored bytes.
    /// - Parameters:
    ///   - etag: the identity representation's tag, if the answer has one.
    ///   - stored: the cache's deflated copy of `body`, when the answer came from the cache.
    func response(
        status: HTTPResponse.Status, headers: HTTPFields, etag: String? = nil, body: [UInt8], stored: DeflatedBody?,
        accept: AcceptEncoding, method: HTTPRequest.Method
    ) -> Response {
        var headers = headers
        headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        if let coding = coding(for: accept, bodyCount: body.count, method: method),
           !headers.contains(where: { $0.name == .contentEncoding }), let encoded = encode(body, stored: stored, as: coding) {
            headers.append(HTTPField(name: .contentEncoding, value: coding.headerValue))
            if let etag { headers.append(HTTPField(name: .eTag, value: Self.etag(etag, coding: coding))) }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: encoded)))
        }
        if let etag { headers.append(HTTPField(name: .eTag, value: etag)) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `body` in `coding`: from `stored` when it is the same body's, else deflated now. Nil only
    /// when libdeflate fails (out of memory): the answer then goes out as it is.
    func encode(_ body: [UInt8], stored: DeflatedBody?, as coding: ContentCoding) -> [UInt8]? {
        if let stored, stored.inflatedCount == body.count {
            let bytes: [UInt8]? =
                switch coding {
                case .deflate: stored.zlib
                case .gzip: stored.gzip()
                }
            if let bytes {
                counters[coding]?.stored.increment()
                return bytes
            }
        }
        guard let fresh = Self.deflate(body) else { return nil }
        counters[coding]?.compressed.increment()
        switch coding {
        case .deflate: return fresh.zlib
        case .gzip: return fresh.gzip()
        }
    }

    /// `body` as a zlib stream at ``DeflatedBody/level``, with its CRC-32 (libdeflate).
    static func deflate(_ body: [UInt8]) -> DeflatedBody? {
        guard let compressor = libdeflate_alloc_compressor(DeflatedBody.level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, body.count)
        return body.withUnsafeBytes { source -> DeflatedBody? in
            let zlib = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
                count = libdeflate_zlib_compress(compressor, source.baseAddress, source.count, buffer.baseAddress, buffer.count)
            }
            guard !zlib.isEmpty else { return nil }
            let crc = UInt32(truncatingIfNeeded: libdeflate_crc32(0, source.baseAddress, source.count))
            return DeflatedBody(zlib: zlib, crc32: crc, inflatedCount: body.count)
        }
    }
}
