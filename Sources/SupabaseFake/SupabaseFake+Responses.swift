import Foundation
import Hummingbird

/// The fake's answers in the shapes PostgREST and Storage use.
extension SupabaseFake {
    static func response(_ status: Int, _ body: String, contentType: String = "application/json; charset=utf-8") -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    static func json(_ status: Int, _ value: Any) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
        return response(status, String(decoding: data, as: UTF8.self))
    }

    /// PostgREST's `db-max-rows`: Supabase's "Max Rows" API setting, 1000 unless changed. It caps
    /// every table, view and set-returning function read, silently.
    public static let maxRows = 1000

    /// A 200 with a JSON array of rows, cut at ``maxRows`` as PostgREST does (no error: only
    /// `Content-Range` tells), so a client that asks for more rows than that sees what it would
    /// see from a real project.
    static func rows(_ rows: [Any]) -> Response {
        let kept = Array(rows.prefix(maxRows))
        var response = json(200, kept)
        response.headers[.contentRange] = kept.isEmpty ? "*/*" : "0-\(kept.count - 1)/*"
        return response
    }

    /// PostgREST's error body.
    static func pgError(_ status: Int, _ code: String, _ message: String, hint: String? = nil) -> Response {
        json(status, ["code": code, "message": message, "details": NSNull(), "hint": hint.map { $0 as Any } ?? NSNull()])
    }
}
