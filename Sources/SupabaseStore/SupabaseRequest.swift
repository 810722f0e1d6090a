import Foundation

/// One request to PostgREST or Storage, before the store's headers are added.
///
/// The query is kept as ordered (name, value) pairs and encoded by ``PostgRESTQuery`` in one
/// place, so `+`, `"`, `&` and `%` are always percent-encoded (a raw `+` in a timestamp reads
/// as a space and fails with 22007).
struct SupabaseRequest: Sendable {
    enum Method: String, Sendable {
        case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
    }

    /// Which API answers: the error bodies differ (PostgREST `{code,message,...}`, Storage
    /// `{statusCode,error,message}` behind HTTP 400).
    enum Service: Sendable {
        case rest, storage, auth
    }

    var method: Method
    var service: Service
    /// Path below the project URL, starting with `/` and already percent-encoded.
    var path: String
    var query: [(String, String)] = []
    var headers: [(String, String)] = []
    var body: Data? = nil
    /// Safe to send again after a failure: reads only (GET and the STABLE read functions).
    var idempotent: Bool
    /// A name for logs and errors: the port operation (`profilesByID`, `putAvatar`, ...).
    var operation: String

    /// `path?query` as sent.
    var target: String {
        query.isEmpty ? path : path + "?" + PostgRESTQuery.encode(query)
    }
}

/// A complete upstream answer: status, headers (lower-cased names) and the body.
struct SupabaseResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    var isSuccess: Bool { (200..<300).contains(status) }
}

/// What can go wrong below the domain; ``SupabaseErrorMapper`` turns it into a ``DomainError``.
enum SupabaseFailure: Error, Sendable, CustomStringConvertible {
    /// No HTTP answer: refused, reset, DNS, TLS, timeout.
    case transport(String)
    /// An HTTP answer that is not a success.
    case status(SupabaseResponse)
    /// A success whose body is not what the contract says.
    case malformed(String)

    var description: String {
        switch self {
        case .transport(let detail): "transport: \(detail)"
        case .status(let response):
            "HTTP \(response.status): \(String(decoding: response.body.prefix(2_000), as: UTF8.self))"
        case .malformed(let detail): "malformed response: \(detail)"
        }
    }
}
