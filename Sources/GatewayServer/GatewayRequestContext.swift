import Hummingbird
import NIOCore
import Synchronization

/// The per-request context of the gateway's router: Hummingbird's core storage plus the request id
/// that ``RequestIDMiddleware`` assigns (echoed in `X-Request-Id` and in every log line).
public struct GatewayRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's `X-Request-Id` when it is sane, else a generated one.
    public var requestID: String = ""
    /// What a handler learned that the access log line should carry (the operation names).
    /// A reference, because contexts are passed down by value and the log line is written on the way up.
    public var annotations = RequestAnnotations()

    /// The peer's socket address; formatted only when asked (``clientAddress``), which few
    /// requests do: formatting it for each was 1.7% of the CPU of a cached answer (issue #17).
    public var remoteAddress: SocketAddress?

    /// The peer's IP address; behind a proxy, the proxy's (``TrustedProxies`` finds the client's).
    public var clientAddress: String? { remoteAddress?.ipAddress }

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Facts about a request gathered by its handler for the access log.
public final class RequestAnnotations: Sendable {
    let names = Mutex<[String]>([])

    public init() {}

    /// Records the operation name of one GraphQL operation (`-` for anonymous ones).
    public func addOperation(_ name: String?) {
        names.withLock { $0.append(name ?? "-") }
    }

    /// The operation names, comma-separated, or nil when there were none.
    public var operations: String? {
        names.withLock { $0.isEmpty ? nil : $0.joined(separator: ",") }
    }
}

/// A header name. (Hummingbird re-exports `HTTPFields` but not `HTTPField`; this names its
/// `Name` type without a direct dependency on swift-http-types.)
public typealias HeaderName = HTTPFields.Element.Name

extension HeaderName {
    /// `X-Request-Id`: the request's id, echoed in the response.
    public static let requestID = HeaderName("X-Request-Id")!
    /// `X-Content-Type-Options`, set to `nosniff` on served files.
    public static let contentTypeOptions = HeaderName("X-Content-Type-Options")!
    /// The CSRF preflight headers of the multipart request spec's security note.
    public static let graphQLPreflight = HeaderName("GraphQL-Preflight")!
    public static let apolloRequirePreflight = HeaderName("Apollo-Require-Preflight")!
    public static let apolloOperationName = HeaderName("X-Apollo-Operation-Name")!
    /// `X-Forwarded-For`, read only from ``TrustedProxies``.
    public static let xForwardedFor = HeaderName("X-Forwarded-For")!
    /// `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers) on a 429.
    public static let rateLimitPolicy = HeaderName("RateLimit-Policy")!
    public static let rateLimit = HeaderName("RateLimit")!
}
