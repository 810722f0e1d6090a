import Prometheus
import SocialGateway
import Synchronization

extension GatewayMetrics {
    /// Exposes the graph kept in memory (issue 53), brought up to date before every scrape:
    /// the gauges `social_gateway_graph_memory_{profiles,lists,viewers,bytes}` (what it holds, the
    /// bytes as the estimate its bound applies to) and `social_gateway_graph_memory_answering` (1
    /// while it answers reads), and the counters `social_gateway_graph_memory_evictions_total`,
    /// `social_gateway_graph_memory_{hits,misses}_total{kind="profiles|lists|viewers"}`. An
    /// operator sizes `GRAPH_MEMORY_BYTES` by them: evictions climbing while the hit rate falls
    /// say the bound is too small for the replica's working set.
    public func mirror(memory: GraphMemory) {
        func gauge(_ name: String, _ help: String) -> Gauge {
            registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "social_gateway", metricName: name, unitName: "", helpText: help))
        }
        let profiles = gauge("graph_memory_profiles", "Profiles the graph memory keeps.")
        let lists = gauge("graph_memory_lists", "Follow-list starts the graph memory keeps.")
        let viewers = gauge("graph_memory_viewers", "Viewers whose facts the graph memory keeps.")
        let bytes = gauge("graph_memory_bytes", "The estimated bytes the graph memory holds (what GRAPH_MEMORY_BYTES bounds).")
        let answering = gauge("graph_memory_answering", "1 while reads are answered from the graph memory (the change stream is connected).")
        let evictions = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "graph_memory_evictions", unitName: "total",
                helpText: "Records dropped from the graph memory to stay under its bounds."))
        func counters(_ name: String, _ help: String) -> [(MemoryCounters.Kind, Counter)] {
            MemoryCounters.Kind.allCases.map { kind in
                (kind, registry.makeCounter(
                    descriptor: MetricNameDescriptor(namespace: "social_gateway", metricName: name, unitName: "total", helpText: help),
                    labels: [("kind", kind.rawValue)]))
            }
        }
        let hits = counters("graph_memory_hits", "Lookups the graph memory answered, by kind of record.")
        let misses = counters("graph_memory_misses", "Lookups the graph memory could not answer (read from the store), by kind of record.")
        let seen = Mutex<MemoryStatistics?>(nil)
        addCollector {
            let now = memory.statistics
            profiles.set(to: Double(now.profiles))
            lists.set(to: Double(now.lists))
            viewers.set(to: Double(now.viewers))
            bytes.set(to: Double(now.bytes))
            answering.set(to: memory.isAnswering ? 1.0 : 0.0)
            seen.withLock { previous in
                let delta = now.evictions - (previous?.evictions ?? 0)
                if delta > 0 { evictions.increment(by: Int64(delta)) }
                for (kind, counter) in hits {
                    let delta = (now.counters.hits[kind] ?? 0) - (previous?.counters.hits[kind] ?? 0)
                    if delta > 0 { counter.increment(by: Int64(delta)) }
                }
                for (kind, counter) in misses {
                    let delta = (now.counters.misses[kind] ?? 0) - (previous?.counters.misses[kind] ?? 0)
                    if delta > 0 { counter.increment(by: Int64(delta)) }
                }
                previous = now
            }
        }
    }
}
