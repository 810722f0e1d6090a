import Foundation
import Hummingbird
import PostgresNIO

/// PostgREST's error answers: its own (`PGRST...`, for a request it cannot read) and PostgreSQL's
/// errors passed on, with the HTTP status PostgREST gives each SQLSTATE.
///
/// The body is always `{"code", "details", "hint", "message"}`, nulls explicit (supabase-wire.md
/// §2.10); for PostgreSQL's errors these are the server's own fields, so a function's condition
/// (`raise ... using errcode = 'PT404', hint = 'profile_not_found'`) reaches the store exactly as
/// the migration raised it.
struct PostgRESTError: Error, Encodable, Sendable {
    var status: Int
    var code: String
    var message: String
    var details: String?
    var hint: String?

    init(status: Int, code: String, message: String, details: String? = nil, hint: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.hint = hint
    }

    /// PostgreSQL's error as PostgREST answers it; nil when `error` carries no server fields
    /// (a connection failure: the caller answers 503, as PostgREST does when the database is gone).
    /// - Parameter authenticated: whether the request carried a user's token (42501 is 403
    ///   then, 401 for anon).
    init?(_ error: any Error, authenticated: Bool) {
        guard let info = (error as? PSQLError)?.serverInfo, let state = info[.sqlState] else { return nil }
        let message = info[.message] ?? ""
        self.init(
            status: Self.status(sqlState: state, message: message, authenticated: authenticated), code: state, message: message,
            details: info[.detail], hint: info[.hint])
    }

    /// The request names no function of these arguments (PostgREST's schema cache).
    static func noFunction(_ name: String, _ arguments: [String]) -> PostgRESTError {
        PostgRESTError(
            status: 404, code: "PGRST202",
            message: "Could not find the function public.\(name)(\(arguments.sorted().joined(separator: ", "))) in the schema cache",
            hint: "Perhaps you meant to call another function")
    }

    /// A query string PostgREST cannot parse.
    static func badQuery(_ message: String, details: String? = nil) -> PostgRESTError {
        PostgRESTError(status: 400, code: "PGRST100", message: message, details: details)
    }

    /// A body that is not the JSON the request needs.
    static func badBody(_ message: String) -> PostgRESTError {
        PostgRESTError(status: 400, code: "PGRST102", message: message)
    }

    /// The database could not be reached (PostgREST's 503 `PGRST001`).
    static func unavailable(_ detail: String) -> PostgRESTError {
        PostgRESTError(status: 503, code: "PGRST001", message: "Database client error. Retrying the connection.", details: detail)
    }

    /// The HTTP status PostgREST gives a SQLSTATE (PostgREST's `pgErrorStatus`): `PTxyz` is xyz,
    /// a `raise` without a code (P0001) 400, privilege 401 or 403, unique and foreign keys 409, a
    /// write in a read-only transaction 405, server-side classes 5xx, the rest (bad input, checks) 400.
    static func status(sqlState state: String, message: String, authenticated: Bool) -> Int {
        if state.hasPrefix("PT"), let status = Int(state.dropFirst(2)), (100...599).contains(status) { return status }
        switch state {
        case "23503", "23505": return 409
        case "25006": return 405
        case "21000": return message.hasSuffix("requires a WHERE clause") ? 400 : 500
        case "53400": return 500
        case "57P01": return 503
        case "P0001": return 400
        case "42883", "42P01": return 404
        case "42P17": return 500
        case "42501": return authenticated ? 403 : 401
        default: break
        }
        switch state.prefix(2) {
        case "08", "53": return 503
        case "0L", "0P", "28": return 403
        case "09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "P0", "XX": return 500
        default: return 400
        }
    }

    /// The answer: the status and the JSON body, nulls explicit.
    var response: Response {
        SupabaseFake.json(status, self)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(details, forKey: .details)
        try c.encode(hint, forKey: .hint)
        try c.encode(message, forKey: .message)
    }

    enum CodingKeys: String, CodingKey { case code, details, hint, message }
}
