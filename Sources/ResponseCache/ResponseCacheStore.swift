import Foundation
import GRDB
import Logging
import Synchronization

/// The gateway's response cache: GraphQL responses by ``CacheKey`` in one SQLite file (WAL).
///
/// Correctness comes before hit rate. Private answers are keyed by viewer (``CacheScope``); tags
/// recorded during execution let mutations remove exactly the entries they affect, committed
/// before ``invalidate(tags:)`` returns (read-your-writes for every later request); a
/// ``CacheToken`` taken before execution keeps a response computed before an invalidation from
/// being stored after it. Any failure to open the file (not a database, unreadable, read-only,
/// no such directory) yields a disabled store that answers every lookup with a miss: the cache
/// never fails a request. A failed invalidation also turns lookups off, since the entries it
/// should have removed may still be there.
///
/// Lookups cost one synchronous `pool.read` with a cached statement. LRU bookkeeping is kept in memory and
/// written in batches by the next store (or every 1,024 touches), so a hit never takes the writer.
///
/// ```swift
/// let cache = ResponseCacheStore.open(path: URL(fileURLWithPath: "data/cache.sqlite"))
/// if let hit = await cache.lookup(key) { return hit.body }
/// let token = cache.beginComputation()
/// let body = try await execute()
/// await cache.store(key, body: body, maxAge: 60, tags: ["Profile:42"], token: token)
/// ```
public final class ResponseCacheStore: Sendable {
    struct State: Sendable {
        var counters = CacheCounters()
        var ledger = InvalidationLedger()
        /// Last access per entry digest, not yet written.
        var entryTouches: [String: Double] = [:]
        /// Last use per persisted-query hash, not yet written.
        var queryTouches: [String: Double] = [:]
        /// Set when an invalidation could not be committed: entries it should have removed may
        /// remain, so lookups answer nothing until a successful `removeAll`.
        var invalidationFailed = false
    }

    static let touchFlushThreshold = 1_024

    let pool: DatabasePool?
    let options: ResponseCacheOptions
    let logger: Logger
    let state = Mutex(State())

    init(pool: DatabasePool?, options: ResponseCacheOptions, logger: Logger) {
        self.pool = pool
        self.options = options
        self.logger = logger
    }

    /// Opens or creates the cache at `path`, creating its directory if needed.
    ///
    /// On any failure (the file is not a database, cannot be read or written, the directory
    /// cannot be created) it logs a warning and returns a disabled store. Never throws.
    /// - Parameters:
    ///   - path: the SQLite file; `-wal` and `-shm` files appear next to it.
    ///   - options: size bound, stale grace, APQ bound.
    ///   - logger: receives the degrade warning and later write failures.
    public static func open(
        path: URL,
        options: ResponseCacheOptions = .init(),
        logger: Logger = Logger(label: "social-gateway.response-cache")
    ) -> ResponseCacheStore {
        open(path: path, options: options, logger: logger, configuration: Configuration())
    }

    /// `open` with a given GRDB configuration (tests use `readonly` to stand for a read-only file,
    /// which `chmod` cannot produce when tests run as root).
    static func open(
        path: URL, options: ResponseCacheOptions, logger: Logger, configuration: Configuration
    ) -> ResponseCacheStore {
        var configuration = configuration
        configuration.label = "ResponseCache"
        configuration.busyMode = .timeout(2)
        configuration.prepareDatabase { db in
            // A cache may lose its last transactions on power loss; it must not lose speed.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            try FileManager.default.createDirectory(
                at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            let pool = try DatabasePool(path: path.path, configuration: configuration)
            try CacheSchema.migrator.migrate(pool)
            // Prove the file is writable and readable now, rather than failing on first use.
            try pool.write { db in
                try db.execute(sql: "UPDATE cache_meta SET total_bytes = total_bytes WHERE id = 1")
            }
            _ = try pool.read { db in try Int.fetchOne(db, sql: CacheSchema.totalBytes) }
            return ResponseCacheStore(pool: pool, options: options, logger: logger)
        } catch {
            logger.warning(
                "response cache disabled: cannot use cache file",
                metadata: ["path": "\(path.path)", "error": "\(error)"])
            return ResponseCacheStore(pool: nil, options: options, logger: logger)
        }
    }

    /// A store that caches nothing: every lookup misses, every store is dropped.
    public static func disabled() -> ResponseCacheStore {
        ResponseCacheStore(pool: nil, options: .init(), logger: Logger(label: "social-gateway.response-cache"))
    }

    /// Whether the store has a working database (false for ``disabled()`` and failed opens).
    public var isEnabled: Bool { pool != nil }

    /// A snapshot of the outcome counters.
    public var counters: CacheCounters { state.withLock { $0.counters } }

    // MARK: Lookup

    private struct Found: Sendable {
        var body: [UInt8]
        var etag: String
        var storedAt: Double
        var expiresAt: Double
        var maxAge: Int
    }

    /// A fresh entry for `key`, or nil.
    ///
    /// With `allowStale` (stale-if-error, after execution failed) an entry expired less than
    /// ``ResponseCacheOptions/staleGrace`` ago is returned with `isStale == true`. Counts one hit,
    /// stale or miss, and records the access for LRU in memory.
    /// - Parameters:
    ///   - key: the request's key.
    ///   - now: the current time (tests pass their own clock).
    ///   - allowStale: whether an expired entry within the grace window may be returned.
    public func lookup(_ key: CacheKey, now: Date = Date(), allowStale: Bool = false) async -> CachedResponse? {
        let digest = key.digest
        guard let pool, !state.withLock({ $0.invalidationFailed }) else {
            state.withLock { $0.counters.misses += 1 }
            return nil
        }
        let found: Found?
        do {
            found = try Self.readEntry(pool, digest: digest)
        } catch {
            logger.warning("response cache lookup failed", metadata: ["error": "\(error)"])
            found = nil
        }
        let time = now.timeIntervalSince1970
        guard let found else {
            state.withLock { $0.counters.misses += 1 }
            return nil
        }
        let isFresh = time < found.expiresAt
        let isServable = isFresh || (allowStale && time < found.expiresAt + options.staleGrace)
        let shouldFlush = state.withLock { state -> Bool in
            guard isServable else {
                state.counters.misses += 1
                return false
            }
            if isFresh { state.counters.hits += 1 } else { state.counters.stale += 1 }
            state.entryTouches[digest] = max(state.entryTouches[digest] ?? 0, time)
            return state.entryTouches.count >= Self.touchFlushThreshold
        }
        if shouldFlush {
            Task { await self.flushTouches() }
        }
        guard isServable else { return nil }
        return CachedResponse(
            body: found.body, etag: found.etag,
            storedAt: Date(timeIntervalSince1970: found.storedAt),
            expiresAt: Date(timeIntervalSince1970: found.expiresAt),
            isStale: !isFresh, maxAge: found.maxAge)
    }

    /// The entry stored under `digest`, read synchronously on the caller's thread.
    ///
    /// Synchronous on purpose: a point read by primary key takes microseconds, while GRDB's
    /// async read costs two thread hops through its dispatch queues, measured as the largest
    /// share of a hit's time under load. WAL readers never wait for the writer, and the pool
    /// has more readers than the concurrency executor has threads. `unsafeRead` skips GRDB's
    /// BEGIN/COMMIT around the block: one SELECT in autocommit mode already reads one snapshot.
    private static func readEntry(_ pool: DatabasePool, digest: String) throws -> Found? {
        try pool.unsafeRead { db -> Found? in
            let statement = try db.cachedStatement(sql: CacheSchema.selectEntry)
            guard let row = try Row.fetchOne(statement, arguments: [digest]) else { return nil }
            let body: Data = row[0]
            return Found(body: [UInt8](body), etag: row[1], storedAt: row[2], expiresAt: row[3], maxAge: row[4])
        }
    }

    // MARK: Store

    /// A token to take before executing; see ``CacheToken``.
    public func beginComputation() -> CacheToken {
        state.withLock { $0.ledger.token() }
    }

    /// Stores `body` under `key` for `maxAge` seconds with its `tags`, then sweeps entries past
    /// their stale grace and evicts least recently used entries beyond
    /// ``ResponseCacheOptions/maxBytes``.
    ///
    /// Dropped without error when the store is disabled, `maxAge <= 0`, the entry alone exceeds
    /// the size bound, or any tag was invalidated after `token` was taken. The admission check
    /// runs inside the write transaction, and ``invalidate(tags:)`` records its tags before its
    /// own (later) write transaction deletes, so either the entry is refused or it is committed
    /// before the invalidation's delete and removed by it. It returns when the entry is committed;
    /// call it from a detached task to keep it off the response path.
    /// - Parameters:
    ///   - key: the request's key.
    ///   - body: the response bytes to replay.
    ///   - maxAge: freshness lifetime in seconds.
    ///   - tags: the entity and list tags recorded during execution.
    ///   - token: taken by ``beginComputation()`` before execution.
    ///   - now: the current time.
    public func store(
        _ key: CacheKey, body: [UInt8], maxAge: Int, tags: Set<String>, token: CacheToken, now: Date = Date()
    ) async {
        guard let pool, maxAge > 0 else { return }
        let size = body.count + CacheSchema.entryOverhead
        guard size <= options.maxBytes else { return }
        guard state.withLock({ $0.ledger.admits(token, tags: tags) }) else { return }
        let digest = key.digest
        let etag = CachedResponse.etag(for: body)
        let time = now.timeIntervalSince1970
        let (entryTouches, queryTouches) = takeTouches()
        let maxBytes = options.maxBytes
        let sweepBefore = time - options.staleGrace
        do {
            let evicted = try await pool.write { db -> Int in
                try Self.apply(entryTouches: entryTouches, queryTouches: queryTouches, in: db)
                guard self.state.withLock({ $0.ledger.admits(token, tags: tags) }) else { return 0 }
                try db.cachedStatement(sql: CacheSchema.deleteEntry).execute(arguments: [digest])
                try db.cachedStatement(sql: CacheSchema.insertEntry).execute(arguments: [
                    digest, Data(body), etag, time, time + Double(maxAge), maxAge, time, size,
                ])
                let insertTag = try db.cachedStatement(sql: CacheSchema.insertTag)
                for tag in tags {
                    try insertTag.execute(arguments: [tag, digest])
                }
                try db.cachedStatement(sql: CacheSchema.sweepExpired).execute(arguments: [sweepBefore])
                return try Self.evict(toFit: maxBytes, in: db)
            }
            if evicted > 0 {
                state.withLock { $0.counters.evictions += evicted }
            }
        } catch {
            logger.warning("response cache store failed", metadata: ["error": "\(error)"])
        }
    }

    /// Deletes least recently used entries until the accounted size is within `maxBytes`.
    /// - Returns: the number of entries evicted.
    static func evict(toFit maxBytes: Int, in db: Database) throws -> Int {
        var evicted = 0
        let total = try db.cachedStatement(sql: CacheSchema.totalBytes)
        let oldest = try db.cachedStatement(sql: CacheSchema.leastRecentlyUsed)
        let delete = try db.cachedStatement(sql: CacheSchema.deleteEntry)
        while let bytes = try Int.fetchOne(total), bytes > maxBytes {
            let victims = try String.fetchAll(oldest, arguments: [32])
            if victims.isEmpty { break }
            for digest in victims {
                try delete.execute(arguments: [digest])
                evicted += 1
                if let now = try Int.fetchOne(total), now <= maxBytes { return evicted }
            }
        }
        return evicted
    }

    // MARK: Invalidation

    /// Removes every entry carrying any of `tags`, committed before it returns, and refuses later
    /// stores of computations that began before it (see ``CacheToken``).
    ///
    /// If the delete cannot be committed, lookups are turned off (they could return entries that
    /// should be gone) and an error is logged.
    /// - Parameter tags: entity tags (`Profile:<id>`) and list tags (`followers:<id>`, `search`).
    public func invalidate(tags: Set<String>) async {
        guard !tags.isEmpty else { return }
        // Record first: a store whose admission check runs after this line is refused; one that
        // ran before commits before our delete below takes the writer, and is deleted by it.
        state.withLock { $0.ledger.invalidate(tags) }
        guard let pool else { return }
        do {
            try await pool.write { db in
                let delete = try db.cachedStatement(sql: CacheSchema.deleteTagged)
                for tag in tags {
                    try delete.execute(arguments: [tag])
                }
            }
        } catch {
            state.withLock { $0.invalidationFailed = true }
            logger.error(
                "response cache invalidation failed; lookups disabled",
                metadata: ["tags": "\(tags.sorted())", "error": "\(error)"])
        }
    }

    /// Removes every response entry (persisted queries stay) and refuses stores of computations
    /// that began before it. A success re-enables lookups after a failed invalidation.
    public func removeAll() async {
        state.withLock {
            $0.ledger.invalidateAll()
            $0.entryTouches.removeAll()
        }
        guard let pool else { return }
        do {
            try await pool.write { db in
                try db.execute(sql: "DELETE FROM entry_tags; DELETE FROM entries")
            }
            state.withLock { $0.invalidationFailed = false }
        } catch {
            state.withLock { $0.invalidationFailed = true }
            logger.error("response cache removeAll failed; lookups disabled", metadata: ["error": "\(error)"])
        }
    }

    // MARK: LRU bookkeeping

    /// Takes the pending access times out of memory, to be written by the caller's transaction.
    func takeTouches() -> ([String: Double], [String: Double]) {
        state.withLock { state in
            defer {
                state.entryTouches.removeAll(keepingCapacity: true)
                state.queryTouches.removeAll(keepingCapacity: true)
            }
            return (state.entryTouches, state.queryTouches)
        }
    }

    /// Writes pending access times now (also done by every store).
    func flushTouches() async {
        guard let pool else { return }
        let (entryTouches, queryTouches) = takeTouches()
        guard !entryTouches.isEmpty || !queryTouches.isEmpty else { return }
        do {
            try await pool.write { db in
                try Self.apply(entryTouches: entryTouches, queryTouches: queryTouches, in: db)
            }
        } catch {
            logger.warning("response cache access times not written", metadata: ["error": "\(error)"])
        }
    }

    static func apply(entryTouches: [String: Double], queryTouches: [String: Double], in db: Database) throws {
        if !entryTouches.isEmpty {
            let touch = try db.cachedStatement(sql: CacheSchema.touchEntry)
            for (digest, time) in entryTouches {
                try touch.execute(arguments: [time, digest, time])
            }
        }
        if !queryTouches.isEmpty {
            let touch = try db.cachedStatement(sql: PersistedQueries.touch)
            for (hash, time) in queryTouches {
                try touch.execute(arguments: [time, hash, time])
            }
        }
    }
}
