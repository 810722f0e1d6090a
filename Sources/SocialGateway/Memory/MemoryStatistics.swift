/// Hits and misses of ``GraphMemory`` by kind of record.
public struct MemoryCounters: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case profiles, lists, viewers
    }

    public private(set) var hits: [Kind: Int] = [:]
    public private(set) var misses: [Kind: Int] = [:]

    mutating func count(hits found: Int, misses missed: Int, of kind: Kind) {
        if found > 0 { hits[kind, default: 0] += found }
        if missed > 0 { misses[kind, default: 0] += missed }
    }
}

/// What ``GraphMemory`` holds now and how it has served (`/metrics`, docs/performance).
public struct MemoryStatistics: Sendable, Hashable {
    public var profiles: Int
    public var lists: Int
    public var viewers: Int
    /// The estimate of the bytes held, which the byte bound applies to.
    public var bytes: Int
    public var evictions: Int
    public var counters: MemoryCounters
}
