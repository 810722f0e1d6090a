import GraphQLEngine
import Hummingbird
import SocialDomain

/// Every way the HTTP layer refuses a request before (or instead of) running GraphQL, with its
/// status, `extensions.code` and message in one place.
///
/// Hummingbird's `HTTPResponseError` pattern: the router turns a thrown error into its response, so
/// a handler just throws `GatewayHTTPError.bodyTooLarge(limit:)` and the client gets a 413 with a
/// GraphQL-shaped body `{"errors":[{"message":...,"extensions":{"code":...}}]}`. These bodies are
/// sent as `application/json`: GraphQL over HTTP reserves `application/graphql-response+json`
/// for responses the GraphQL service produced.
///
/// ```swift
/// guard bytes.count <= limit else { throw GatewayHTTPError.bodyTooLarge(limit: limit) }
/// ```
public enum GatewayHTTPError: Error, Sendable, Hashable {
    /// The body is not valid JSON (GraphQL over HTTP: 400).
    case invalidJSON(String)
    /// The request cannot be read at all (GraphQL over HTTP: 400, as for a body that is not
    /// JSON): a GET `variables` or `extensions` that is not JSON, a URL query that is not valid
    /// percent-encoding, a body cut short.
    case malformedRequest(String)
    /// The JSON is not a well-formed GraphQL-over-HTTP request: a parameter missing or of the
    /// wrong type, an empty batch (GraphQL over HTTP, "Status Codes": 422).
    case invalidParameters(String)
    /// A JSON document of the request (the body, a GET `variables`/`extensions` parameter, the
    /// multipart `operations` or `map`) holds more values than allowed (400), refused while it
    /// is read, so its cost stays bounded whatever its shape.
    case tooManyJSONValues(limit: Int)
    /// A JSON body or the multipart `operations`/`map` fields are over the body limit (413).
    case bodyTooLarge(limit: Int)
    /// One uploaded file is over the per-file limit (413), refused while it streams in.
    case fileTooLarge(limit: Int)
    /// More files than allowed in one multipart request (413).
    case tooManyFiles(limit: Int)
    /// More operations than allowed in one batch (400).
    case batchTooLarge(count: Int, limit: Int)
    /// The multipart body does not follow the GraphQL multipart request spec (400).
    case invalidMultipart(String)
    /// A request a browser could send cross-site without a preflight (multipart spec, Security).
    case csrfPreflightRequired
    /// Content-Type missing or not one we read (415).
    case unsupportedMediaType(String?)
    /// No media type of the `Accept` header can be produced (406).
    case notAcceptable(String)
    /// A method other than GET/POST on `/graphql` (405).
    case methodNotAllowed
    /// The bearer token is missing parts, invalid, expired... (401, never a silent anonymous request).
    case unauthenticated(String)
    /// A route that does not exist, or is off in this mode (404).
    case notFound
    /// As many uploads as allowed are being received already (503 with `Retry-After`).
    case tooManyUploads(limit: Int)
    /// An uploaded file could not be written to the spool folder (503): a server-side problem.
    case uploadSpoolFailed
    /// The request waited longer than allowed to start (``QueueWaitGate``): 503 with
    /// `Retry-After`, nothing of it run.
    case overloaded
    /// An event stream over the replica's bound on streaming connections
    /// (``StreamingAdmission``): 503 with `Retry-After`.
    case tooManyStreams(limit: Int)

    /// The HTTP status of the refusal.
    public var status: HTTPResponse.Status {
        switch self {
        case .invalidJSON, .malformedRequest, .batchTooLarge, .invalidMultipart, .csrfPreflightRequired, .tooManyJSONValues:
            .badRequest
        case .invalidParameters: .unprocessableContent
        case .bodyTooLarge, .fileTooLarge, .tooManyFiles: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .notAcceptable: .notAcceptable
        case .methodNotAllowed: .methodNotAllowed
        case .unauthenticated: .unauthorized
        case .notFound: .notFound
        case .tooManyUploads, .uploadSpoolFailed, .overloaded: .serviceUnavailable
        case .tooManyStreams: .serviceUnavailable
        }
    }

    /// The `extensions.code` clients switch on. A refusal that means what a domain error means
    /// (too large, the wrong media type, no valid session, nothing there) carries that
    /// ``DomainErrorCode``, spelled once in SocialDomain; the others are the HTTP layer's own.
    public var code: String {
        switch self {
        case .invalidJSON, .malformedRequest, .invalidParameters, .invalidMultipart: "BAD_REQUEST"
        case .batchTooLarge: "BATCH_TOO_LARGE"
        case .tooManyJSONValues: "TOO_MANY_JSON_VALUES"
        case .csrfPreflightRequired: "CSRF_PREFLIGHT_REQUIRED"
        case .bodyTooLarge, .fileTooLarge, .tooManyFiles: DomainErrorCode.payloadTooLarge.rawValue
        case .unsupportedMediaType: DomainErrorCode.unsupportedMediaType.rawValue
        case .notAcceptable: "NOT_ACCEPTABLE"
        case .methodNotAllowed: "METHOD_NOT_ALLOWED"
        case .unauthenticated: DomainErrorCode.unauthenticated.rawValue
        case .notFound: DomainErrorCode.notFound.rawValue
        case .tooManyUploads: "TOO_MANY_UPLOADS"
        case .uploadSpoolFailed: "UPLOAD_UNAVAILABLE"
        case .overloaded: DomainErrorCode.serverBusy.rawValue
        case .tooManyStreams: DomainErrorCode.serverBusy.rawValue
        }
    }

    /// A message meant for the client developer: what was wrong and what to send instead.
    public var message: String {
        switch self {
        case .invalidJSON(let detail): "The request body is not valid JSON: \(detail)."
        case .malformedRequest(let detail), .invalidParameters(let detail): detail
        case .tooManyJSONValues(let limit):
            "The request's JSON holds more than \(limit) values (object members and array items count one each)."
        case .bodyTooLarge(let limit): "The request body is larger than the limit of \(ByteCount(limit))."
        // The domain's words for a file over a limit (seed 000's), whichever layer refuses it.
        case .fileTooLarge(let limit): DomainError.fileTooLarge(maxBytes: limit).message
        case .tooManyFiles(let limit): "A request may upload at most \(limit) file\(limit == 1 ? "" : "s")."
        case .batchTooLarge(let count, let limit):
            "A batch may hold at most \(limit) operations; this one has \(count)."
        case .invalidMultipart(let detail): "Invalid multipart request: \(detail)"
        case .csrfPreflightRequired:
            "This request has been blocked as a potential Cross-Site Request Forgery (CSRF). Send a "
                + "non-empty GraphQL-Preflight (or Apollo-Require-Preflight) header, or a Content-Type "
                + "other than multipart/form-data, application/x-www-form-urlencoded or text/plain."
        case .unsupportedMediaType(let type?):
            "Unsupported Content-Type \"\(type)\": send application/json, or multipart/form-data for uploads."
        case .unsupportedMediaType(nil):
            "Missing Content-Type: send application/json, or multipart/form-data for uploads."
        case .notAcceptable(let accept):
            "None of the media types in Accept \"\(accept)\" can be produced: accept "
                + "application/graphql-response+json or application/json."
        case .methodNotAllowed: "GraphQL requests must use GET (queries only) or POST."
        case .unauthenticated(let reason): reason
        case .notFound: "Not found."
        case .tooManyUploads(let limit):
            "The server is already receiving \(limit) upload\(limit == 1 ? "" : "s"); try again in a moment."
        case .uploadSpoolFailed: "The server cannot receive uploads right now; try again later."
        case .overloaded: "The server has more requests than it can answer in time; try again in a second."
        case .tooManyStreams(let limit):
            "The server already holds \(limit) streaming connections; try again in a few seconds."
        }
    }

    /// The GraphQL-shaped error body.
    public var body: [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.write(
            .object(["errors": .array([.object(["message": .string(message), "extensions": .object(["code": .string(code)])])])]))
        return writer.bytes
    }
}

extension GatewayHTTPError: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: MediaType.json.headerValue]
        switch self {
        case .methodNotAllowed: headers[.allow] = "GET, POST"
        case .tooManyUploads, .uploadSpoolFailed, .overloaded: headers[.retryAfter] = "1"
        case .tooManyStreams: headers[.retryAfter] = "5"
        case .unauthenticated(let reason):
            headers[.wwwAuthenticate] = "Bearer realm=\"social-gateway\", error=\"invalid_token\", error_description=\"\(reason.replacingOccurrences(of: "\"", with: "'"))\""
        default: break
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
