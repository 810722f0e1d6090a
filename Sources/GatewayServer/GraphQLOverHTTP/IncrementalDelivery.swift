import GraphQLEngine
import HTTPTypes
import Hummingbird
import SocialGateway

/// Incremental delivery over HTTP (`@defer`, `@stream`): which format a client's `Accept`
/// asks for, and the `multipart/mixed` response that carries the payloads.
///
/// - `multipart/mixed;deferSpec=20220824` (Apollo Router's, and Apollo iOS, Apollo Kotlin 4 and
///   Apollo Client 3 send it), or a plain `multipart/mixed`: ``IncrementalFormat/v0_1``.
/// - `multipart/mixed;incrementalSpec=v0.2` (graphql-js 17, Apollo Client 4.1, Apollo Kotlin 5):
///   ``IncrementalFormat/v0_2``.
/// - A `multipart/mixed` with `subscriptionSpec` is the subscription transport (``StreamFormat``),
///   and any other `Accept` gets the whole answer at once: `@defer` and `@stream` are then
///   ignored, never refused, so an app that sends them without asking still works.
///
/// The response is `multipart/mixed;boundary="graphql"` with the format's parameter: each payload
/// is an `application/json` part, written as soon as it is ready and followed at once by the next
/// delimiter (Apollo's clients take a part as complete when the delimiter arrives), and the
/// closing delimiter ends it. Apollo Router frames its payloads the same way.
enum IncrementalDelivery {
    /// The incremental format `accept` asks for, or nil. Ranges with `q=0` are not acceptable;
    /// among several, the first listed with the highest q wins.
    static func format(accept: String?) -> IncrementalFormat? {
        guard let accept, HeaderScan.contains(accept, "multipart") else { return nil }
        var best: (format: IncrementalFormat, q: Double)?
        for range in accept.split(separator: ",") {
            guard let type = ContentType(String(range)), type.essence == "multipart/mixed",
                type.parameters["subscriptionspec"] == nil
            else { continue }
            let q = type.parameters["q"].flatMap(Double.init) ?? 1
            guard q > 0 else { continue }
            let format: IncrementalFormat
            if let spec = type.parameters["incrementalspec"] {
                guard spec == "v0.2" else { continue }
                format = .v0_2
            } else if let spec = type.parameters["deferspec"] {
                guard spec == "20220824" else { continue }
                format = .v0_1
            } else {
                format = .v0_1
            }
            if best == nil || q > best!.q { best = (format, q) }
        }
        return best?.format
    }

    /// The `Content-Type` of an incremental response in `format`.
    static func contentType(_ format: IncrementalFormat) -> String {
        switch format {
        case .v0_1: #"multipart/mixed;boundary="graphql";deferSpec=20220824"#
        case .v0_2: #"multipart/mixed;boundary="graphql";incrementalSpec=v0.2"#
        }
    }

    private static let delimiter = Array("\r\n--graphql".utf8)
    private static let partHead = Array("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n".utf8)
    private static let closing = Array("--\r\n".utf8)

    /// One part: its head, the payload, and the delimiter that tells the client it is complete.
    static func part(_ body: [UInt8]) -> [UInt8] { partHead + body + delimiter }

    /// The whole body of an answer with these payloads, as the response writes it (for tests).
    static func body(_ payloads: [[UInt8]]) -> [UInt8] {
        delimiter + payloads.flatMap(part) + closing
    }

    /// The streaming response for an incremental answer: the first payload at once, the others
    /// as the service produces them (``SocialGateway/IncrementalPayloads``), then the end.
    static func response(_ result: GatewayResponse, format: IncrementalFormat) -> Response {
        var headers: HTTPFields = [.contentType: contentType(format), .cacheControl: result.cacheControl ?? "no-store"]
        headers.append(HTTPField(name: .vary, value: "Accept"))
        headers[HeaderName("X-Accel-Buffering")!] = "no"
        let first = result.body
        let payloads = result.incremental
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: delimiter + part(first)))
                if let payloads {
                    try await payloads.forEach { payload in
                        try await writer.write(ByteBuffer(bytes: part(payload.body)))
                    }
                }
                try await writer.write(ByteBuffer(bytes: closing))
                try await writer.finish(nil)
            })
    }
}
