import Foundation
import GraphQLEngine
import SocialDomain

/// One GraphQL request as the HTTP layer hands it over: the GraphQL-over-HTTP
/// parameters, the authenticated viewer and, for multipart requests, the files.
public struct GatewayRequest: Sendable {
    /// The document text; nil when the client sent only a persisted-query hash.
    public var query: String?
    public var operationName: String?
    public var variables: JSONObject
    /// The request's `extensions` (e.g. Apollo's `persistedQuery`).
    public var extensions: JSONObject?
    /// Who is asking: decided by the HTTP layer from the bearer token.
    public var viewer: Viewer
    /// Files of a multipart request, by the key used in its `map` (GraphQL multipart request spec).
    public var files: [String: UploadedFile]
    /// The multipart `map`: file key -> object paths in the operation, e.g. `"0": ["variables.file"]`.
    public var fileMap: [String: [String]]
    /// True for GET: only queries may run (a mutation is refused with 405).
    public var isReadOnly: Bool
    /// The client's address (for the per-address rate limits of sign-in and sign-up): the TCP
    /// peer, or what a trusted proxy said it forwarded for.
    public var clientAddress: String?
    /// What the HTTP request may still spend, shared by every operation of a batch.
    public var budget: RequestBudget
    /// The incremental format the client accepts (its `Accept`), nil when it did not ask for
    /// one: `@defer` and `@stream` are then ignored and the whole answer comes at once.
    public var incremental: IncrementalFormat?

    public init(
        query: String?, operationName: String? = nil, variables: JSONObject = [:], extensions: JSONObject? = nil,
        viewer: Viewer = .anonymous, files: [String: UploadedFile] = [:], fileMap: [String: [String]] = [:],
        isReadOnly: Bool = false, clientAddress: String? = nil, budget: RequestBudget = RequestBudget()
    ) {
        self.clientAddress = clientAddress
        self.budget = budget
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
        self.viewer = viewer
        self.files = files
        self.fileMap = fileMap
        self.isReadOnly = isReadOnly
    }
}

/// The service's answer, with what the HTTP layer needs to choose a status and headers.
public struct GatewayResponse: Sendable {
    public enum Outcome: Sendable, Hashable {
        /// Execution ran: `data` is present (errors may be too).
        case executed
        /// The request could not run (§7.1.7): unparsable, invalid, bad variables. No `data`.
        case requestError
        /// A mutation sent over GET (GraphQL over HTTP: 405).
        case mutationNotAllowed
    }

    public var outcome: Outcome
    /// The response JSON (`{"errors":...,"data":...,"extensions":...}`).
    public var body: [UInt8]
    /// Whether the body has an `errors` entry.
    public var hasErrors: Bool
    /// The `extensions.code` of each error in the body, in order (uncoded errors are absent), so
    /// callers decide on codes without reading the body again.
    public var errorCodes: [String]
    /// `Cache-Control` for the response, when the cache policy allows caching.
    public var cacheControl: String?
    /// A strong validator of the body, for `ETag`/`If-None-Match`.
    public var etag: String?
    /// The first `retryAfter` among the errors (a rate limit, a busy server), so that the HTTP
    /// layer sets `Retry-After` without reading the body again.
    public var retryAfterSeconds: Int?
    /// Where in the response cache this answer was found or stored: set only for a query
    /// answered through the cache, so that the HTTP layer can ask the cache directly when the
    /// same request comes again (``GatewayService/cachedAnswer(_:)``).
    public var cacheableQuery: CacheableQuery?
    /// The body deflated, when the answer came from the cache and the cache keeps it so: the
    /// HTTP layer sends it compressed from these bytes (``DeflatedBody``).
    public var deflatedBody: DeflatedBody?
    /// The rate limit that refused this request (``RateLimiter``), for the `RateLimit` and
    /// `RateLimit-Policy` headers of its 429.
    public var rateLimit: RateLimiter.Decision?
    /// For an incremental answer (`@defer`, `@stream`): the payloads after the first, which is
    /// ``body``. Nil for an answer sent whole.
    public var incremental: IncrementalPayloads?

    public init(
        outcome: Outcome, body: [UInt8], hasErrors: Bool, errorCodes: [String] = [], cacheControl: String? = nil,
        etag: String? = nil
    ) {
        self.outcome = outcome
        self.body = body
        self.hasErrors = hasErrors
        self.errorCodes = errorCodes
        self.cacheControl = cacheControl
        self.etag = etag
    }
}
