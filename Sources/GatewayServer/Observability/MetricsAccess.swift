import Hummingbird

/// Who may read `/metrics` (issue 51): the counters say how busy the server is, how often its
/// cache hits, how many requests it refuses and why, which is an attacker's map of what hurts.
///
/// - A server on a loopback address serves `/metrics` on its API port to anyone (only this
///   machine can connect): the load scripts read it there.
/// - Off loopback, the API port serves `/metrics` only with `Authorization: Bearer
///   <METRICS_TOKEN>` when `METRICS_TOKEN` is set, and otherwise not at all (404).
/// - `METRICS_PORT` serves `/metrics` (and nothing else) on a listener of its own, bound to
///   `METRICS_HOST` (127.0.0.1 by default), for a scraper on the same host or in the same pod;
///   the API port then no longer serves it unless `METRICS_TOKEN` is set. The token, when set,
///   is asked on the metrics port too.
///
/// ```swift
/// let access = MetricsAccess(configuration)
/// guard access.onAPIPort.allows(request) else { throw GatewayHTTPError.notFound }
/// ```
public struct MetricsAccess: Sendable, Equatable {
    /// What a listener asks of a request for `/metrics`.
    public enum Rule: Sendable, Equatable {
        /// Anyone may read it.
        case open
        /// Only a request with `Authorization: Bearer <token>`.
        case token(String)
        /// Not served (404).
        case closed
    }

    /// The rule on the API port.
    public let onAPIPort: Rule
    /// The rule on the metrics port (``ServerConfiguration/metricsPort``), when there is one.
    public let onMetricsPort: Rule

    public init(_ configuration: ServerConfiguration) {
        let token = configuration.metricsToken.map(Rule.token)
        if let token {
            onAPIPort = token
        } else if configuration.metricsPort != nil || !ServerConfiguration.isLoopback(configuration.host) {
            onAPIPort = .closed
        } else {
            onAPIPort = .open
        }
        onMetricsPort = token ?? .open
    }
}

extension MetricsAccess.Rule {
    /// Checks `request` against the rule.
    /// - Throws: ``GatewayHTTPError/notFound`` where `/metrics` is not served,
    ///   ``GatewayHTTPError/unauthenticated(_:)`` (401) without the right token.
    func check(_ request: Request) throws(GatewayHTTPError) {
        switch self {
        case .open: return
        case .closed: throw .notFound
        case .token(let token):
            let given = request.headers[.authorization].flatMap { header -> Substring? in
                guard header.lowercased().hasPrefix("bearer ") else { return nil }
                return header.dropFirst("bearer ".count)
            }
            guard let given, Self.equalInConstantTime(Array(given.utf8), Array(token.utf8)) else {
                throw .unauthenticated("/metrics needs \"Authorization: Bearer <METRICS_TOKEN>\".")
            }
        }
    }

    /// Compares without stopping at the first difference, so the time taken says nothing of how
    /// much of a guess was right (only whether its length was).
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
