import Prometheus
import SocialGateway
import Synchronization

extension GatewayMetrics {
    /// Exposes demand control's refusals as
    /// `social_gateway_demand_refusals_total{reason="cost|rate_limit_query|rate_limit_mutation",mode="enforce|measure"}`:
    /// in enforce mode the requests refused, in measure mode those that would have been (and ran);
    /// and the cost units admitted requests spent as `social_gateway_demand_cost_units_total{bucket="query|mutation"}`.
    /// Brought up to date before every scrape.
    public func mirror(demand: DemandCounters) {
        let modes: [DemandControlOptions.Mode] = [.enforce, .measure]
        var series: [(DemandCounters.Reason, DemandControlOptions.Mode, Counter)] = []
        for reason in DemandCounters.Reason.allCases {
            for mode in modes {
                let counter = registry.makeCounter(
                    descriptor: MetricNameDescriptor(
                        namespace: "social_gateway", metricName: "demand_refusals", unitName: "total",
                        helpText: "Requests refused by demand control (enforce), or that would have been (measure): over MAX_COST, or over a rate limit."),
                    labels: [("reason", reason.rawValue), ("mode", mode.rawValue)])
                series.append((reason, mode, counter))
            }
        }
        let spent = RateLimiter.Bucket.allCases.map { bucket in
            (bucket, registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "social_gateway", metricName: "demand_cost_units", unitName: "total",
                    helpText: "Cost units spent by admitted requests (the estimate of an executed operation, 1 for a cache hit), reads (query) and writes (mutation) apart: what this replica served, in the rate limits' units."),
                labels: [("bucket", bucket.rawValue)]))
        }
        let seen = Mutex<[Int]>(Array(repeating: 0, count: series.count + spent.count))
        let all = series
        addCollector {
            seen.withLock { previous in
                for (index, (reason, mode, counter)) in all.enumerated() {
                    let now = demand.count(reason, mode: mode)
                    if now > previous[index] { counter.increment(by: Int64(now - previous[index])) }
                    previous[index] = now
                }
                for (offset, (bucket, counter)) in spent.enumerated() {
                    let index = all.count + offset
                    let now = demand.spent(bucket)
                    if now > previous[index] { counter.increment(by: Int64(now - previous[index])) }
                    previous[index] = now
                }
            }
        }
    }
}
