import Prometheus
import SocialGateway
import Synchronization

extension GatewayMetrics {
    /// Exposes demand control's refusals as
    /// `social_gateway_demand_refusals_total{reason="cost|rate_limit_query|rate_limit_mutation",mode="enforce|measure"}`:
    /// in enforce mode the requests refused, in measure mode those that would have been (and ran).
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
        let seen = Mutex<[Int]>(Array(repeating: 0, count: series.count))
        let all = series
        addCollector {
            seen.withLock { previous in
                for (index, (reason, mode, counter)) in all.enumerated() {
                    let now = demand.count(reason, mode: mode)
                    if now > previous[index] { counter.increment(by: Int64(now - previous[index])) }
                    previous[index] = now
                }
            }
        }
    }
}
