import Foundation

/// The cache that keeps nothing: every lookup misses, every store is dropped. The service's
/// default, and what a gateway runs with when caching is off (`CACHE=off`).
///
/// Persisted queries are not kept either, so a client sending a hash alone is told
/// `PersistedQueryNotSupported` (``isEnabled`` is false) and sends its query text.
public struct NoResponseCache: ResponseCaching {
    public init() {}

    public var isEnabled: Bool { false }
    public var counters: CacheCounters { CacheCounters(lookupsEnabled: false) }
    public func lookup(_ key: CacheKey, now: Date, allowStale: Bool, countsMiss: Bool) async -> CachedResponse? { nil }
    public func memoryHit(_ key: CacheKey, now: Date) -> CachedResponse? { nil }
    public func beginComputation() -> CacheToken { CacheToken(epoch: 0) }
    /// False: with nothing kept, no computation can count on another's answer landing here.
    public func nothingInvalidated(since token: CacheToken) -> Bool { false }
    public func storeInBackground(
        _ key: CacheKey, body: [UInt8], etag: String?, maxAge: Int, tags: Set<String>, token: CacheToken, now: Date
    ) {}
    public func invalidate(tags: Set<String>) async {}
    public func beginWrite() {}
    public func endWrite() {}
    public func suspendLookups() {}
    public func resumeLookups() async {}
    public func removeAll() async {}
    public func persistedQuery(sha256Hash: String, now: Date) async -> String? { nil }
    public func storePersistedQuery(_ query: String, sha256Hash: String, now: Date) async -> Bool {
        DocumentHash.of(query) == sha256Hash.lowercased()
    }
}
