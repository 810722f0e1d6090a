import Prometheus
import SocialGateway
import Synchronization

extension GatewayMetrics {
    /// Exposes the response cache's counters as
    /// `social_gateway_cache_{hits,misses,stale,evictions,write_failures,dropped_stores}_total`, and whether its
    /// lookups are on as the gauge `social_gateway_cache_lookups_enabled` (0 after a failed
    /// invalidation, until the file is cleared), brought up to date before every scrape.
    public func mirror(cache: any ResponseCaching) {
        let seen = Mutex(CacheCounters())
        let names = [
            ("cache_hits", "Responses served from the cache."),
            ("cache_misses", "Cacheable requests the cache could not answer."),
            ("cache_stale", "Expired responses served because the store was unavailable."),
            ("cache_evictions", "Entries evicted to keep the cache under its size bound."),
            ("cache_write_failures", "Writes to the cache file that failed (a full disk, an I/O error); serving goes on."),
            ("cache_dropped_stores", "Answers not cached because too many stores were waiting for the cache's writer."),
        ]
        let counters = names.map { name, help in
            registry.makeCounter(
                descriptor: MetricNameDescriptor(namespace: "social_gateway", metricName: name, unitName: "total", helpText: help))
        }
        let lookupsEnabled = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "cache_lookups_enabled", unitName: "",
                helpText: "1 while the cache answers lookups; 0 after a failed invalidation, until its file is cleared."))
        addCollector {
            let now = cache.counters
            lookupsEnabled.set(to: now.lookupsEnabled ? 1.0 : 0.0)
            seen.withLock { previous in
                let deltas = [now.hits - previous.hits, now.misses - previous.misses, now.stale - previous.stale,
                              now.evictions - previous.evictions, now.writeFailures - previous.writeFailures,
                              now.droppedStores - previous.droppedStores]
                for (counter, delta) in zip(counters, deltas) where delta > 0 { counter.increment(by: Int64(delta)) }
                previous = now
            }
        }
    }

    /// Exposes the cache's change feed: `social_gateway_cache_feed_connected` (1 while listening)
    /// and `social_gateway_cache_feed_events_total{event="connected|changed|unreadable|lost"}`.
    public func mirror(coherence: CacheCoherence) {
        let connected = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "cache_feed_connected", unitName: "",
                helpText: "1 while the cache follows the database's change notifications; 0 while it does not (the cache then answers nothing)."))
        let events = ["connected", "changed", "unreadable", "lost"]
        let counters = events.map { event in
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "social_gateway", metricName: "cache_feed_events", unitName: "total",
                    helpText: "Change-feed events: connections, notifications of writes, unreadable notifications, losses."),
                labels: [("event", event)])
        }
        let seen = Mutex<[String: Int]>([:])
        addCollector {
            connected.set(to: coherence.state == .listening ? 1.0 : 0.0)
            let now = coherence.counts
            seen.withLock { previous in
                for (event, counter) in zip(events, counters) {
                    let delta = (now[event] ?? 0) - (previous[event] ?? 0)
                    if delta > 0 { counter.increment(by: Int64(delta)) }
                }
                previous = now
            }
        }
    }
}
