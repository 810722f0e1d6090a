import Prometheus
import SocialGateway
import Synchronization

extension GatewayMetrics {
    /// Exposes subscriptions: `social_gateway_subscriptions_active`,
    /// `social_gateway_streaming_connections`, and
    /// `social_gateway_subscription_events_total{event}` (started, delivered, executed once per
    /// event and fan-out key, skipped as not visible, throttled repeated notifications, ended by
    /// reason: completed, cancelled, slow_consumer, backend_unavailable, unauthenticated,
    /// too_many_requests; refused_connection for a viewer over their streaming-connection limit,
    /// refused_subscription over their subscription limit), and
    /// `social_gateway_execution_slots_waiting{priority}` (request, event).
    func mirror(subscriptions hub: SubscriptionHub, connections: StreamingConnections) {
        let active = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "subscriptions_active", unitName: "",
                helpText: "Live subscriptions running now, on every transport."))
        let open = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "streaming_connections", unitName: "",
                helpText: "WebSockets and event streams open now."))
        let slotsWaiting = [ExecutionSlots.Priority.request, .event].map { priority in
            (priority, registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "social_gateway", metricName: "execution_slots_waiting", unitName: "",
                    helpText: "Executions waiting for a slot now: client requests, and subscription events (served after every waiting request)."),
                labels: [("priority", priority == .request ? "request" : "event")]))
        }
        let counters = Mutex<[String: Counter]>([:])
        let seen = Mutex<[String: Int]>([:])
        addCollector { [registry] in
            active.set(to: Double(hub.activeCount))
            open.set(to: Double(connections.count))
            for (priority, gauge) in slotsWaiting { gauge.set(to: Double(hub.slots.waiting(priority))) }
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
