import Foundation

/// The response cache as the gateway's service uses it: answers by ``CacheKey``, tags that
/// mutations and the change stream invalidate, and the persisted queries of Apollo's APQ.
///
/// The gateway owns this port and the SQLite cache (`ResponseCache.ResponseCacheStore`) is one
/// implementation of it, chosen by the composition root, as stores implement the domain's ports:
/// the service, the change stream's ``CacheCoherence`` and the HTTP layer never name the concrete
/// cache. ``NoResponseCache`` is the cache that keeps nothing.
///
/// What an implementation promises (the service relies on each):
/// - Correctness before hit rate: an answer is never served to another ``CacheScope``, and an
///   entry whose tags were invalidated after its ``CacheToken`` was taken is never stored.
/// - ``invalidate(tags:)`` has taken effect when it returns (read-your-writes).
/// - Nothing throws: a failing cache answers misses and drops stores, and says so in its
///   ``counters``.
public protocol ResponseCaching: Sendable {
    /// Whether the cache keeps anything at all (false for ``NoResponseCache`` and for a cache
    /// whose file could not be opened).
    var isEnabled: Bool { get }
    /// The outcome counters, for `/metrics`.
    var counters: CacheCounters { get }

    /// The answer stored under `key` and still fresh at `now` (or, with `allowStale`, expired
    /// within the grace window, for a backend that is down). A miss is counted when `countsMiss`.
    func lookup(_ key: CacheKey, now: Date, allowStale: Bool, countsMiss: Bool) async -> CachedResponse?
    /// The answer under `key` if it is in memory and nothing invalidated it since: no I/O, so a
    /// caller holding a lock may ask.
    func memoryHit(_ key: CacheKey, now: Date) -> CachedResponse?

    /// Taken before an answer is computed, handed back with its store: an invalidation of any of
    /// its tags in between keeps the (maybe stale) answer out.
    func beginComputation() -> CacheToken
    /// Whether nothing at all was invalidated since `token` was taken (single-flight joins).
    func nothingInvalidated(since token: CacheToken) -> Bool
    /// Stores an answer off the caller's path; the cache may drop it when its writer is behind.
    func storeInBackground(
        _ key: CacheKey, body: [UInt8], etag: String?, maxAge: Int, tags: Set<String>, token: CacheToken, now: Date)

    /// Removes every answer built from data behind any of `tags`, before returning.
    func invalidate(tags: Set<String>) async
    /// Brackets a write to the backing store, from before it commits until its invalidation has
    /// returned, so that a process that dies in between leaves no answer older than the store.
    func beginWrite()
    func endWrite()

    /// Answers nothing until ``resumeLookups()``: writes may go unreported (a lost change feed).
    func suspendLookups()
    /// Clears everything, then answers again (unless suspended again meanwhile).
    func resumeLookups() async
    /// Clears every answer (a change feed's unreadable notification: anything may have changed).
    func removeAll() async

    /// The query registered under `sha256Hash` (hex, either case), or nil.
    func persistedQuery(sha256Hash: String, now: Date) async -> String?
    /// Registers `query` under its hash; false when the hash is not the query's.
    func storePersistedQuery(_ query: String, sha256Hash: String, now: Date) async -> Bool
}

extension ResponseCaching {
    /// ``lookup(_:now:allowStale:countsMiss:)`` now.
    public func lookup(_ key: CacheKey, allowStale: Bool = false, countsMiss: Bool = true) async -> CachedResponse? {
        await lookup(key, now: Date(), allowStale: allowStale, countsMiss: countsMiss)
    }

    /// ``memoryHit(_:now:)`` now.
    public func memoryHit(_ key: CacheKey) -> CachedResponse? { memoryHit(key, now: Date()) }

    /// ``storeInBackground(_:body:etag:maxAge:tags:token:now:)`` now.
    public func storeInBackground(
        _ key: CacheKey, body: [UInt8], etag: String? = nil, maxAge: Int, tags: Set<String>, token: CacheToken
    ) {
        storeInBackground(key, body: body, etag: etag, maxAge: maxAge, tags: tags, token: token, now: Date())
    }

    /// ``persistedQuery(sha256Hash:now:)`` now.
    public func persistedQuery(sha256Hash: String) async -> String? { await persistedQuery(sha256Hash: sha256Hash, now: Date()) }

    /// ``storePersistedQuery(_:sha256Hash:now:)`` now.
    public func storePersistedQuery(_ query: String, sha256Hash: String) async -> Bool {
        await storePersistedQuery(query, sha256Hash: sha256Hash, now: Date())
    }
}
