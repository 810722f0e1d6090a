import Foundation
import Hummingbird
import SocialDomain

/// The fake's answers in the shapes PostgREST and Storage use.
extension SupabaseFake {
    static func response(_ status: Int, _ body: String, contentType: String = "application/json; charset=utf-8") -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// PostgREST's `db-max-rows`: Supabase's "Max Rows" API setting, 1000 unless changed. It caps
    /// every table, view and set-returning function read, silently (only `Content-Range` tells).
    public static let maxRows = 1000

    /// `value` as JSON: keys sorted, so an answer reads the same every run; slashes unescaped,
    /// as PostgREST writes URLs.
    static func json<Value: Encodable>(_ status: Int, _ value: Value) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return response(500, #"{"code":"XX000","details":null,"hint":null,"message":"SupabaseFake: an answer could not be encoded"}"#)
        }
        return Response(
            status: .init(code: status), headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `2025-03-02T10:11:12.345678+00:00`, as PostgREST prints a timestamptz in UTC (GoTrue's times too).
    static func timestamp(_ micros: Int64) -> String {
        UnixMicroseconds.timestamp(micros, utcDesignator: "+00:00")
    }

    /// A request body decoded as `type`, the argument type the stores encode; nil when it is not one.
    static func arguments<Arguments: Decodable>(_ type: Arguments.Type, _ request: RecordedRequest) -> Arguments? {
        try? JSONDecoder().decode(type, from: request.body)
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
