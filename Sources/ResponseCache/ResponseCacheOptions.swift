import Foundation

/// The limits of a response cache; every one has a default.
///
/// ```swift
/// let cache = ResponseCacheStore.open(path: url, options: .init(maxBytes: 256 << 20, staleGrace: 600))
/// ```
public struct ResponseCacheOptions: Sendable {
    /// The bound on the bytes of stored entries (bodies plus a fixed per-entry overhead); the
    /// least recently used entries are evicted past it. An entry larger than this is not stored.
    /// Default 64 MiB.
    public var maxBytes: Int = 64 << 20
    /// How long after expiry an entry may still be served by `lookup(_:allowStale: true)`, for
    /// stale-if-error. Entries older than expiry plus this are swept. Default 300 s.
    public var staleGrace: TimeInterval = 300
    /// The bound on stored persisted queries (APQ); the least recently used are dropped past it.
    /// Default 10,000.
    public var maxPersistedQueries: Int = 10_000
    /// The bound on the UTF-8 bytes of stored persisted queries, on top of their count and apart
    /// from ``maxBytes``; the least recently used are dropped past it, and a single query larger
    /// than it is not stored. Default 4 MiB.
    public var maxPersistedQueryBytes: Int = 4 << 20
    /// The bound on response bytes kept in memory for hits that skip the file (0 keeps none).
    /// Default 64 MiB, and never more than ``maxBytes``.
    ///
    /// Why as much as the file's default bound: the file keeps bodies deflated, memory keeps them
    /// as served, and a hit from the file costs a read and an inflate (a 149 KB follower graph:
    /// 450-520 us of CPU, against 180 us from memory). At 16 MiB memory held 110 such graphs of the
    /// file's thousand, and random graphs read 3,600-4,100 req/s; at 64 MiB, 5,000-6,100.
    public var memoryBytes: Int = 64 << 20
    /// The bound on the number of responses kept in memory. Default 32,768.
    ///
    /// Why that many: ``memoryBytes`` is the bound that matters for memory; this one only caps the
    /// table. Cards shared per audience class (issue 53) are small and many: random viewers of
    /// 1,000 profiles made about 9,000 classes in 30 s, more than 4,096 entries hold, and a hit
    /// from the file costs a read, an inflate and a thread hop.
    public var memoryEntries: Int = 32_768
    /// After a failed invalidation (lookups are off until the file is cleared), how long to wait
    /// between two attempts to clear it, made by lookups in the background: the cache comes back
    /// by itself once the disk has room again. Default 5 s.
    public var recoveryInterval: TimeInterval = 5
    /// The most background stores (``ResponseCacheStore/storeInBackground(_:body:maxAge:tags:token:)``)
    /// waiting at once; past it answers are not cached. Default 64.
    public var maxPendingStores: Int = 64

    public init(
        maxBytes: Int = 64 << 20, staleGrace: TimeInterval = 300, maxPersistedQueries: Int = 10_000,
        maxPersistedQueryBytes: Int = 4 << 20, memoryBytes: Int = 64 << 20, memoryEntries: Int = 32_768
    ) {
        self.maxBytes = maxBytes
        self.staleGrace = staleGrace
        self.maxPersistedQueries = maxPersistedQueries
        self.maxPersistedQueryBytes = maxPersistedQueryBytes
        self.memoryBytes = memoryBytes
        self.memoryEntries = memoryEntries
    }
}
