import GraphQLEngine
import Synchronization

/// Demand control: how operations are priced (the `@cost` and `@listSize` directives of
/// `schema.graphql`, see ``GraphQLEngine/CostEstimator``) and what happens to those over the
/// maximum (`COST_MODE`, `MAX_COST`), and the rate limits that spend the same prices
/// (`RATE_LIMIT_MODE`, ``RateLimiter``).
public struct DemandControlOptions: Sendable {
    /// What a limit does when crossed.
    public enum Mode: String, Sendable, CaseIterable {
        /// Refuse (`QUERY_TOO_COMPLEX`; `TOO_MANY_REQUESTS` with 429).
        case enforce
        /// Log and count what would be refused, and run it.
        case measure
        /// Price nothing (cost) or spend nothing (rate limits).
        case off
    }

    /// `COST_MODE`: enforce by default.
    public var costMode = Mode.enforce
    /// `MAX_COST`: the highest estimated cost an operation may have (10,000). Every shipped
    /// document costs far less (docs/DESIGN.md, "The cost model": the bench query 1,503, the
    /// load test's follower graph 1,153).
    public var maxCost = 10_000
    /// `COST_LIST_SIZE`: elements assumed of a list field without `@listSize` (every list of
    /// `schema.graphql` has one; this prices a schema that lacks them).
    public var defaultListSize = 50
    /// `RATE_LIMIT_MODE`: enforce by default.
    public var rateLimitMode = Mode.enforce

    public init() {}
}

/// Counts of what demand control refused, or would have in measure mode, and of the cost units
/// the admitted requests spent, for the metrics.
public final class DemandCounters: Sendable {
    /// Why a request was (or would have been) refused.
    public enum Reason: String, Sendable, CaseIterable {
        case cost
        case rateLimitQuery = "rate_limit_query"
        case rateLimitMutation = "rate_limit_mutation"
    }

    private let counts = Mutex<[String: Int]>([:])
    private let spentReads = Atomic<Int>(0)
    private let spentWrites = Atomic<Int>(0)

    public init() {}

    /// Counts the cost units an admitted request spends: its estimate when it executes, 1 for a
    /// cache hit (what the rate limits charge), whether or not the limits are on. Summed over a
    /// replica's busy second, it is what the replica serves: the figure the default limits are
    /// derived from (docs/performance/2026-12-02-rate-limit-defaults.md).
    func recordSpent(_ cost: Int, bucket: RateLimiter.Bucket) {
        let units = max(cost, 1)
        switch bucket {
        case .query: spentReads.add(units, ordering: .relaxed)
        case .mutation: spentWrites.add(units, ordering: .relaxed)
        }
    }

    /// The cost units admitted requests spent from `bucket`'s kind so far.
    public func spent(_ bucket: RateLimiter.Bucket) -> Int {
        switch bucket {
        case .query: spentReads.load(ordering: .relaxed)
        case .mutation: spentWrites.load(ordering: .relaxed)
        }
    }

    func record(_ reason: Reason, mode: DemandControlOptions.Mode) {
        counts.withLock { $0["\(reason.rawValue)|\(mode.rawValue)", default: 0] += 1 }
    }

    /// The count for a reason and a mode (enforce or measure).
    public func count(_ reason: Reason, mode: DemandControlOptions.Mode) -> Int {
        counts.withLock { $0["\(reason.rawValue)|\(mode.rawValue)"] ?? 0 }
    }
}
