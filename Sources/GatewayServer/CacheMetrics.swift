import Prometheus
import ResponseCache
import Synchronization

extension GatewayMetrics {
    /// Exposes the response cache's counters as `social_gateway_cache_{hits,misses,stale,evictions}_total`,
    /// brought up to date before every scrape.
    public func mirror(cache: ResponseCacheStore) {
        let seen = Mutex(CacheCounters())
        let names = [
            ("cache_hits", "Responses served from the cache."),
            ("cache_misses", "Cacheable requests the cache could not answer."),
            ("cache_stale", "Expired responses served because the store was unavailable."),
            ("cache_evictions", "Entries evicted to keep the cache under its size bound."),
        ]
        let counters = names.map { name, help in
            registry.makeCounter(
                descriptor: MetricNameDescriptor(namespace: "social_gateway", metricName: name, unitName: "total", helpText: help))
        }
        addCollector {
            let now = cache.counters
            seen.withLock { previous in
                let deltas = [now.hits - previous.hits, now.misses - previous.misses, now.stale - previous.stale,
                              now.evictions - previous.evictions]
                for (counter, delta) in zip(counters, deltas) where delta > 0 { counter.increment(by: Int64(delta)) }
                previous = now
            }
        }
    }
}
