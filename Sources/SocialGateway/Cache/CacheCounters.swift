/// A snapshot of the cache's outcome counters since the store was opened.
///
/// Exported as metrics by the HTTP layer (`cache_hits_total`...). A lookup counts exactly once:
/// a fresh entry is a hit, an expired entry served under `allowStale` is `stale`, anything else
/// (absent, expired, disabled store, read failure) is a miss. `evictions` counts entries removed
/// to stay under ``ResponseCacheOptions/maxBytes``, not invalidations or expiry sweeps.
///
/// ```swift
/// let c = store.counters; gauge.set(Double(c.hits) / Double(max(1, c.hits + c.misses)))
/// ```
public struct CacheCounters: Sendable, Hashable {
    /// Lookups answered by a fresh entry.
    public var hits: Int
    /// Lookups answered by nothing.
    public var misses: Int
    /// Lookups answered by an expired entry within the stale grace window.
    public var stale: Int
    /// Entries removed by the size bound (least recently used first).
    public var evictions: Int
    /// Writes to the cache file that failed (a store, an invalidation, a clear): a full disk, an
    /// I/O error. Serving goes on; the first failure of a run is logged, and the recovery.
    public var writeFailures: Int
    /// Answers not cached because ``ResponseCacheOptions/maxPendingStores`` stores were waiting.
    public var droppedStores: Int
    /// Whether lookups are answered from the file: false after a failed invalidation, until the
    /// file has been cleared (retried by lookups every ``ResponseCacheOptions/recoveryInterval``).
    public var lookupsEnabled: Bool
    /// Whether lookups are suspended because other writers' invalidations may be missed (the
    /// change feed is not connected); see ``ResponseCaching/suspendLookups()``.
    public var suspended = false

    /// All counters zero unless given.
    public init(
        hits: Int = 0, misses: Int = 0, stale: Int = 0, evictions: Int = 0, writeFailures: Int = 0, droppedStores: Int = 0,
        lookupsEnabled: Bool = true
    ) {
        self.hits = hits
        self.misses = misses
        self.stale = stale
        self.evictions = evictions
        self.writeFailures = writeFailures
        self.droppedStores = droppedStores
        self.lookupsEnabled = lookupsEnabled
    }
}
