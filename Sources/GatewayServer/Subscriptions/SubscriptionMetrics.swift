import Prometheus
import SocialGateway
import Synchronization

extension GatewayMetrics {
    /// Exposes subscriptions: `social_gateway_subscriptions_active`,
    /// `social_gateway_streaming_connections`, and
    /// `social_gateway_subscription_events_total{event}` (started, delivered, skipped as not
    /// visible, ended by reason: completed, cancelled, slow_consumer, backend_unavailable;
    /// refused_connection for a viewer over their streaming-connection limit).
    func mirror(subscriptions hub: SubscriptionHub, connections: StreamingConnections) {
        let active = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "subscriptions_active", unitName: "",
                helpText: "Live subscriptions running now, on every transport."))
        let open = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "streaming_connections", unitName: "",
                helpText: "WebSockets and event streams open now."))
        let counters = Mutex<[String: Counter]>([:])
        let seen = Mutex<[String: Int]>([:])
        addCollector { [registry] in
            active.set(to: Double(hub.activeCount))
            open.set(to: Double(connections.count))
            let now = hub.counters.snapshot
            seen.withLock { previous in
                for (event, total) in now.sorted(by: { $0.key < $1.key }) {
                    let delta = total - (previous[event] ?? 0)
                    guard delta > 0 else { continue }
                    let counter = counters.withLock { counters in
                        if let counter = counters[event] { return counter }
                        let counter = registry.makeCounter(
                            descriptor: MetricNameDescriptor(
                                namespace: "social_gateway", metricName: "subscription_events", unitName: "total",
                                helpText: "Subscription events: started, delivered, skipped (not visible), ended by reason, refused connections."),
                            labels: [("event", event)])
                        counters[event] = counter
                        return counter
                    }
                    counter.increment(by: Int64(delta))
                }
                previous = now
            }
        }
    }
}
