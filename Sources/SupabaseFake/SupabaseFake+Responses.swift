import Foundation
import Hummingbird

/// The fake's answers in the shapes PostgREST and Storage use.
extension SupabaseFake {
    static func response(_ status: Int, _ body: String, contentType: String = "application/json; charset=utf-8") -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// PostgREST's `db-max-rows`: Supabase's "Max Rows" API setting, 1000 unless changed. It caps
    /// every table, view and set-returning function read, silently.
    public static let maxRows = 1000

    /// A 200 with a JSON array of rows, cut at ``maxRows`` as PostgREST does (no error: only
    /// `Content-Range` tells), so a client that asks for more rows than that sees what it would
    /// see from a real project. The rows are `SupabaseSchema`'s types, the same rows the stores
    /// decode, so the fake cannot answer a shape the stores do not read.
    static func rows<Row: Encodable>(_ rows: [Row]) -> Response {
        let kept = Array(rows.prefix(maxRows))
        var response = json(200, kept)
        response.headers[.contentRange] = kept.isEmpty ? "*/*" : "0-\(kept.count - 1)/*"
        return response
    }

    /// `value` as JSON: keys sorted, so an answer reads the same every run; slashes unescaped,
    /// as PostgREST writes URLs.
    static func json<Value: Encodable>(_ status: Int, _ value: Value) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else { return pgError(500, "XX000", "SupabaseFake: an answer could not be encoded") }
        return Response(
            status: .init(code: status), headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A request body decoded as `type`, the argument type the stores encode; nil when it is not one.
    static func arguments<Arguments: Decodable>(_ type: Arguments.Type, _ request: RecordedRequest) -> Arguments? {
        try? JSONDecoder().decode(type, from: request.body)
    }

    /// PostgREST's error body.
    /// A PostgREST error body. The schema's own conditions are raised as migration
    /// 20250301002100 raises them: message and hint the condition's code, its argument in
    /// `details`, no words (the domain words them).
    static func pgError(_ status: Int, _ code: String, _ message: String, hint: String? = nil, details: String? = nil) -> Response {
        json(status, PostgRESTError(code: code, message: message, details: details, hint: hint))
    }

    /// The schema's condition `hint` with `details`, its code as the message.
    static func condition(_ status: Int, _ code: String, _ hint: String, details: String? = nil) -> Response {
        pgError(status, code, hint, hint: hint, details: details)
    }

    /// `response` with its body written a byte at a time, `pause` apart.
    static func trickled(_ response: Response, pause: Duration) -> Response {
        var response = response
        let body = response.body
        response.body = ResponseBody { writer in
            let collector = ByteCollector()
            try await body.write(collector)
            for byte in collector.bytes {
                try await Task.sleep(for: pause)
                try await writer.write(ByteBuffer(bytes: [byte]))
            }
            try await writer.finish(nil)
        }
        return response
    }

    /// `response` with its full `Content-Length` announced but only half its body sent before
    /// the body fails, which makes the server close the connection mid-body.
    static func cutHalfway(_ response: Response) -> Response {
        var response = response
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            let collector = ByteCollector()
            try await body.write(collector)
            try await writer.write(ByteBuffer(bytes: collector.bytes.prefix(collector.bytes.count / 2)))
            throw CutConnection()
        }
        return response
    }

    struct CutConnection: Error {}
}

/// Collects a response body's bytes (to send them again another way).
final class ByteCollector: ResponseBodyWriter, @unchecked Sendable {
    // @unchecked: one response body is written by one task, then read by it; never shared.
    var bytes: [UInt8] = []
    func write(_ buffer: ByteBuffer) async throws { bytes += buffer.readableBytesView }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
