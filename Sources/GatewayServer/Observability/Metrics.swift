import Prometheus
import Synchronization

/// The gateway's Prometheus metrics, rendered at `GET /metrics` (text exposition format 0.0.4).
///
/// - `social_gateway_store_calls_total{operation}`: store calls by port operation, mirrored from
///   ``SocialGateway/GatewayStores/callCounts`` at each scrape (so batching is visible in production).
/// - `social_gateway_graphql_requests_total{outcome}` and
///   `social_gateway_graphql_request_duration_seconds{outcome}`: one per GraphQL operation, where
///   outcome is `ok`, `field_errors`, `request_error`, `http_error`.
///
/// Other components register their own series on ``registry`` (e.g. the response cache's
/// `social_gateway_cache_hits_total`), and may add a collector that runs before each scrape to
/// mirror counters they keep elsewhere:
///
/// ```swift
/// let hits = metrics.registry.makeCounter(descriptor: .init(namespace: "social_gateway", metricName: "cache_hits", unitName: "total", helpText: "..."))
/// metrics.addCollector { gauge.set(Double(cache.entryCount)) }
/// ```
public final class GatewayMetrics: Sendable {
    /// The registry everything is rendered from.
    public let registry: PrometheusCollectorRegistry
    let storeCallCounts: @Sendable () -> [String: Int]
    let mirroredStoreCalls = Mutex<[String: Int]>([:])
    let collectors = Mutex<[@Sendable () -> Void]>([])
    let requests: [Outcome: Counter]
    let durations: [Outcome: DurationHistogram]

    /// How a GraphQL operation ended, for the request metrics.
    public enum Outcome: String, Sendable, CaseIterable {
        /// Executed without errors.
        case ok
        /// Executed with field errors (partial data).
        case fieldErrors = "field_errors"
        /// Not executed: parse, validation or variable errors, a mutation over GET.
        case requestError = "request_error"
        /// Refused by the HTTP layer: auth, size, media type, CSRF, malformed body.
        case httpError = "http_error"
    }

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), storeCallCounts: @escaping @Sendable () -> [String: Int]) {
        self.registry = registry
        self.storeCallCounts = storeCallCounts
        var requests: [Outcome: Counter] = [:]
        var durations: [Outcome: DurationHistogram] = [:]
        let buckets: [Duration] = [.microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
                                   .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                                   .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5)]
        for outcome in Outcome.allCases {
            requests[outcome] = registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "social_gateway", metricName: "graphql_requests", unitName: "total",
                    helpText: "GraphQL operations served, by outcome."),
                labels: [("outcome", outcome.rawValue)])
            durations[outcome] = registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    namespace: "social_gateway", metricName: "graphql_request_duration", unitName: "seconds",
                    helpText: "Time to answer a GraphQL HTTP request, by outcome."),
                labels: [("outcome", outcome.rawValue)], buckets: buckets)
        }
        self.requests = requests
        self.durations = durations
    }

    /// Counts one finished GraphQL request.
    public func record(_ outcome: Outcome, operations: Int = 1, duration: Duration) {
        requests[outcome]?.increment(by: Int64(operations))
        durations[outcome]?.record(duration)
    }

    /// Adds a closure run before every scrape, to bring externally kept values into ``registry``.
    public func addCollector(_ collect: @escaping @Sendable () -> Void) {
        collectors.withLock { $0.append(collect) }
    }

    /// The exposition text.
    public func render() -> [UInt8] {
        mirrorStoreCalls()
        for collect in collectors.withLock({ $0 }) { collect() }
        return registry.emitToBuffer()
    }

    /// Brings the store's running totals into counters (increments by the difference since the
    /// last scrape; a store whose counters were reset starts its series again from zero).
    func mirrorStoreCalls() {
        let counts = storeCallCounts()
        mirroredStoreCalls.withLock { seen in
            for (operation, total) in counts.sorted(by: { $0.key < $1.key }) {
                let counter = registry.makeCounter(
                    descriptor: MetricNameDescriptor(
                        namespace: "social_gateway", metricName: "store_calls", unitName: "total",
                        helpText: "Store calls by port operation (each one SQL statement or HTTP request)."),
                    labels: [("operation", operation)])
                let previous = seen[operation] ?? 0
                if total >= previous {
                    counter.increment(by: Int64(total - previous))
                } else {
                    counter.reset()
                    counter.increment(by: Int64(total))
                }
                seen[operation] = total
            }
        }
    }
}
