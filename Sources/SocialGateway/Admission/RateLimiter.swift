import Synchronization

/// Token buckets per caller, spent by each request's estimated cost: one for reads (queries and
/// subscriptions) and one for writes (mutations), so a burst of browsing cannot use up a viewer's
/// writes and the reverse.
///
/// A caller is the verified token's `sub` when signed in, else the client's address (the TCP peer
/// or what a trusted proxy forwarded for). A bucket holds up to ``Policy/capacity`` units and
/// refills ``Policy/refillPerSecond`` a second; a request costing more than the whole bucket is
/// charged the whole bucket, so that no request is refused forever. Each spend is O(1): a
/// refill computed from the time elapsed, a subtraction, under one lock.
///
/// The table is bounded by ``maxKeys``: past it, buckets that have refilled to full (an idle
/// caller's, equivalent to none) go first, then the least recently used until a quarter is free,
/// so the sweep's cost is spread over the insertions that led to it. A dropped bucket that was not
/// full comes back full: the tolerance of the bound, documented in the README.
///
/// Buckets live in this replica's memory: behind N replicas a caller may spend up to N times a
/// limit when the balancer spreads its requests (see docs/SERVER.md, "Rate limits per viewer").
///
/// ```swift
/// let limiter = RateLimiter(query: .init(name: "query", capacity: 1_000, refillPerSecond: 100), mutation: ...)
/// let decision = limiter.spend(120, key: .viewer("3f2a..."), bucket: .query)   // allowed, 880 left
/// ```
public final class RateLimiter: Sendable {
    /// One bucket's size and refill.
    public struct Policy: Sendable, Hashable {
        /// The policy's name in the `RateLimit` and `RateLimit-Policy` headers.
        public var name: String
        /// Most units a bucket holds: the largest burst.
        public var capacity: Int
        /// Units added back a second.
        public var refillPerSecond: Int

        public init(name: String, capacity: Int, refillPerSecond: Int) {
            self.name = name
            self.capacity = max(1, capacity)
            self.refillPerSecond = max(1, refillPerSecond)
        }

        /// Seconds an empty bucket takes to fill: the window of `RateLimit-Policy`.
        public var windowSeconds: Int { max(1, (capacity + refillPerSecond - 1) / refillPerSecond) }
    }

    /// Which bucket a request spends from.
    public enum Bucket: String, Sendable, CaseIterable {
        case query, mutation
    }

    /// Whose bucket it is.
    public enum Caller: Sendable, Hashable {
        /// A signed-in viewer, by the token's `sub`.
        case viewer(String)
        /// An anonymous caller, by address (nil when the server does not know it).
        case address(String?)
    }

    /// The outcome of a spend, with what the `RateLimit` headers say.
    public struct Decision: Sendable, Hashable {
        public var allowed: Bool
        public var policy: Policy
        /// Units left after this request (0 when refused).
        public var remaining: Int
        /// Seconds until the request would be allowed (0 when it was).
        public var retryAfterSeconds: Int

        public init(allowed: Bool, policy: Policy, remaining: Int, retryAfterSeconds: Int) {
            self.allowed = allowed
            self.policy = policy
            self.remaining = remaining
            self.retryAfterSeconds = retryAfterSeconds
        }
    }

    private struct State {
        var tokens: Double
        var updated: Double
    }

    private struct Key: Hashable {
        let caller: Caller
        let bucket: Bucket
    }

    public let query: Policy
    public let mutation: Policy
    /// Most buckets kept (both kinds together).
    public let maxKeys: Int
    /// Seconds on a monotonic clock (injected by tests).
    let now: @Sendable () -> Double
    private let table = Mutex<[Key: State]>([:])

    public init(query: Policy, mutation: Policy, maxKeys: Int = 100_000, now: (@Sendable () -> Double)? = nil) {
        self.query = query
        self.mutation = mutation
        self.maxKeys = max(1, maxKeys)
        if let now {
            self.now = now
        } else {
            let start = ContinuousClock.now
            self.now = {
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
        }
    }

    /// The policy of `bucket`.
    public func policy(_ bucket: Bucket) -> Policy { bucket == .query ? query : mutation }

    /// The number of buckets kept.
    public var count: Int { table.withLock { $0.count } }

    /// Takes `cost` units (at least 1, at most the bucket's capacity) from the caller's bucket if
    /// it has them.
    public func spend(_ cost: Int, caller: Caller, bucket: Bucket) -> Decision {
        let policy = policy(bucket)
        let charge = Double(min(max(cost, 1), policy.capacity))
        let capacity = Double(policy.capacity)
        let rate = Double(policy.refillPerSecond)
        let time = now()
        let key = Key(caller: caller, bucket: bucket)
        return table.withLock { table -> Decision in
            var state = table[key] ?? State(tokens: capacity, updated: time)
            state.tokens = min(capacity, state.tokens + max(0, time - state.updated) * rate)
            state.updated = time
            let allowed = state.tokens >= charge
            if allowed { state.tokens -= charge }
            let isNew = table.updateValue(state, forKey: key) == nil
            if isNew && table.count > maxKeys { Self.sweep(&table, at: time, keep: maxKeys * 3 / 4, policies: self) }
            let wait = allowed ? 0 : Int(((charge - state.tokens) / rate).rounded(.up))
            return Decision(
                allowed: allowed, policy: policy, remaining: allowed ? Int(state.tokens) : 0,
                retryAfterSeconds: allowed ? 0 : max(1, wait))
        }
    }

    /// Drops the buckets that are full again, then the least recently used until `keep` remain.
    private static func sweep(_ table: inout [Key: State], at time: Double, keep: Int, policies: RateLimiter) {
        table = table.filter { key, state in
            let policy = policies.policy(key.bucket)
            return state.tokens + (time - state.updated) * Double(policy.refillPerSecond) < Double(policy.capacity)
        }
        guard table.count > keep else { return }
        let oldest = table.sorted { $0.value.updated < $1.value.updated }.prefix(table.count - keep)
        for (key, _) in oldest { table[key] = nil }
    }
}

extension RateLimiter.Decision {
    /// `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers): `"query";q=<capacity>;w=<seconds to refill>`.
    public var policyHeader: String { "\"\(policy.name)\";q=\(policy.capacity);w=\(policy.windowSeconds)" }

    /// `RateLimit`: `"query";r=<remaining>;t=<seconds until this request would pass>`.
    public var stateHeader: String { "\"\(policy.name)\";r=\(remaining);t=\(retryAfterSeconds)" }
}
