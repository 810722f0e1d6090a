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
/// Hot entries are served from memory (``HotEntries``) while a generation counter shared by
/// every process on the file (``SharedGeneration``) is unchanged; other lookups cost one
/// read (async, no transaction) with a cached statement. LRU bookkeeping is kept in memory and
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
        /// Set while the source of other writers' invalidations (a ``SocialDomain`` change feed)
        /// is not connected: entries may be stale unnoticed, so lookups answer nothing until
        /// ``resumeLookups()`` has cleared the file.
        var suspended = false
        /// Counts ``suspendLookups()`` calls, so that a resume racing a newer suspension keeps it.
        var suspensions = 0
        /// How many times this store advanced the shared generation: the rest of its movement
        /// comes from invalidations in other processes.
        var ownAdvances: UInt64 = 0
        /// Writes have been failing since the last success (logged once, not per request).
        var writesFailing = false
        /// When lookups last started a background clear after a failed invalidation.
        var lastRecoveryAttempt: TimeInterval = 0
        /// Stores started by ``storeInBackground`` that have not finished (queued or running).
        var pendingStores = 0
        /// Background stores waiting for the drainer, oldest first.
        var queuedStores: [QueuedStore] = []
        /// The keys (digests) of the background stores not finished yet: one per key at a time.
        var pendingDigests: Set<String> = []
        /// Whether a task is draining ``queuedStores``.
        var draining = false
        /// Whether a task is reclaiming dead entries, and whether an invalidation marked more
        /// since it last looked.
        var reclaiming = false
        var reclaimAgain = false
    }

    /// A response waiting to be stored by the background drainer.
    struct QueuedStore: Sendable {
        var key: CacheKey
        var body: [UInt8]
        /// The body as it goes into the file, encoded before it reached the queue.
        var encoded: (bytes: [UInt8], encoding: BodyCompression.Encoding)
        var etag: String
        var maxAge: Int
        var tags: Set<String>
        var token: CacheToken
    }

    static let touchFlushThreshold = 1_024
    /// The most expired rows one store drops. Every write holds the file's writer, which a
    /// mutation's invalidation may be waiting for, so none may take long whatever the cache holds.
    static let deleteBatch = 4

    let pool: DatabasePool?
    let options: ResponseCacheOptions
    let logger: Logger
    let state = Mutex(State())
    /// Bumped by every invalidation in any process on the same file; nil keeps nothing in memory.
    let generation: SharedGeneration?
    /// Copies of recently used entries, served while ``generation`` has not moved.
    let hot: Mutex<HotEntries>
    /// The file's tag sets turned around: entries by tag, for invalidations. Only used inside
    /// this process's write transactions (``writeWithTagIndex(_:)``).
    let tagIndex = Mutex(TagIndex())

    init(pool: DatabasePool?, options: ResponseCacheOptions, logger: Logger, generation: SharedGeneration? = nil) {
        self.pool = pool
        self.options = options
        self.logger = logger
        self.generation = pool == nil ? nil : generation
        self.hot = Mutex(HotEntries(maxEntries: options.memoryEntries, maxBytes: min(options.memoryBytes, options.maxBytes)))
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
            // Without the shared generation this process's invalidations would not reach other
            // processes' copies in memory: no cache is better than a wrong one.
            guard let generation = SharedGeneration(cachePath: path) else {
                logger.warning(
                    "response cache disabled: cannot map its generation file",
                    metadata: ["path": "\(path.path)-generation"])
                return ResponseCacheStore(pool: nil, options: options, logger: logger)
            }
            if generation.joinAndCheckAlone(), generation.pendingWrites != 0 {
                // A process died between a write it committed and that write's invalidation
                // (kill -9, a crash, power loss): the entries it would have removed may still be
                // here, older than the store. Nobody else is using the file, so clear it now.
                logger.warning(
                    "response cache cleared: the last process on it stopped between a write and its invalidation",
                    metadata: ["path": "\(path.path)", "pending_writes": "\(generation.pendingWrites)"])
                try pool.write { db in try db.execute(sql: CacheSchema.clearAll) }
                generation.advance()
                generation.resetPendingWrites()
            }
            return ResponseCacheStore(pool: pool, options: options, logger: logger, generation: generation)
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
    public var counters: CacheCounters {
        let lookupsEnabled = pool != nil && generation?.isPoisoned != true
        return state.withLock { state in
            var counters = state.counters
            counters.lookupsEnabled = lookupsEnabled && !state.invalidationFailed && !state.suspended
            counters.suspended = state.suspended
            return counters
        }
    }

    // MARK: Lookup

    /// The largest body kept (inflated): a response beyond it is not cached, and a stored row that
    /// would inflate beyond it reads as a miss.
    static let maxInflatedBytes = 128 << 20

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
    ///   - countsMiss: false for a look ahead whose miss the caller's next lookup will count.
    public func lookup(_ key: CacheKey, now: Date = Date(), allowStale: Bool = false, countsMiss: Bool = true) async -> CachedResponse? {
        let digest = key.digest
        if state.withLock({ $0.suspended }) {
            if countsMiss { state.withLock { $0.counters.misses += 1 } }
            return nil
        }
        guard let pool, !state.withLock({ $0.invalidationFailed }), generation?.isPoisoned != true else {
            if countsMiss { state.withLock { $0.counters.misses += 1 } }
            if pool != nil { startRecoveryIfDue() }
            return nil
        }
        let time = now.timeIntervalSince1970
        // Read before the file: an invalidation committed after this load bumps it, so a copy
        // kept below under this generation is never served after that invalidation returns.
        let generation = self.generation?.current
        if let generation, let response = hot.withLock({ $0.servable(digest, generation: generation, at: time) }) {
            countHit(digest, at: time)
            return response
        }
        let found: Found?
        do {
            found = try await Self.readEntry(pool, digest: digest)
        } catch {
            logger.warning("response cache lookup failed", metadata: ["error": "\(error)"])
            found = nil
        }
        guard let found else {
            if countsMiss { state.withLock { $0.counters.misses += 1 } }
            return nil
        }
        let isFresh = time < found.expiresAt
        let isServable = isFresh || (allowStale && time < found.expiresAt + options.staleGrace)
        let shouldFlush = state.withLock { state -> Bool in
            guard isServable else {
                if countsMiss { state.counters.misses += 1 }
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
        let response = CachedResponse(
            body: found.body, etag: found.etag,
            storedAt: Date(timeIntervalSince1970: found.storedAt),
            expiresAt: Date(timeIntervalSince1970: found.expiresAt),
            isStale: !isFresh, maxAge: found.maxAge)
        if isFresh, let generation { hot.withLock { $0.keep(digest, response, generation: generation) } }
        return response
    }

    /// The answer for `key` if a copy in memory may serve it now, without reading the file and
    /// without counting (the caller's ``lookup(_:now:allowStale:countsMiss:)`` counted its miss).
    ///
    /// For a request that missed while an identical one was being computed: the computation puts
    /// its answer in memory before it lets go of its key (``storeInBackground``), so a request
    /// that finds the key let go finds the answer here, even before the file has it.
    public func memoryHit(_ key: CacheKey, now: Date = Date()) -> CachedResponse? {
        guard pool != nil, generation?.isPoisoned != true, !state.withLock({ $0.suspended || $0.invalidationFailed }),
              let generation = self.generation?.current
        else { return nil }
        return hot.withLock { $0.servable(key.digest, generation: generation, at: now.timeIntervalSince1970) }
    }

    /// Counts a hit served from memory and records the access for LRU, like a file hit.
    private func countHit(_ digest: String, at time: Double) {
        let shouldFlush = state.withLock { state -> Bool in
            state.counters.hits += 1
            state.entryTouches[digest] = max(state.entryTouches[digest] ?? 0, time)
            return state.entryTouches.count >= Self.touchFlushThreshold
        }
        if shouldFlush {
            Task { await self.flushTouches() }
        }
    }

    /// The entry stored under `digest`.
    ///
    /// Async on purpose, though a point read takes microseconds: a synchronous read waits on
    /// GRDB's reader semaphore on a cooperative thread, and readers released by async reads
    /// need a cooperative thread to come back, so under load that can deadlock. Hot entries
    /// are answered from memory before this is reached. `unsafeRead` skips GRDB's BEGIN/COMMIT:
    /// one SELECT in autocommit mode already reads one snapshot.
    private static func readEntry(_ pool: DatabasePool, digest: String) async throws -> Found? {
        let stored = try await pool.unsafeRead { db -> (body: Data, encoding: Int64, Found)? in
            let statement = try db.cachedStatement(sql: CacheSchema.selectEntry)
            guard let row = try Row.fetchOne(statement, arguments: [digest]) else { return nil }
            return (row[0], row[1], Found(body: [], etag: row[2], storedAt: row[3], expiresAt: row[4], maxAge: row[5]))
        }
        // Inflated off the reader's queue: the connection is free for the next lookup meanwhile.
        // A row that does not inflate reads as a miss; the next store of its key replaces it.
        guard let (bytes, encoding, entry) = stored,
              let body = BodyCompression.decode([UInt8](bytes), encoding: encoding, limit: maxInflatedBytes)
        else { return nil }
        var found = entry
        found.body = body
        return found
    }

    // MARK: Store

    /// A token to take before executing; see ``CacheToken``.
    public func beginComputation() -> CacheToken {
        state.withLock { state in
            state.ledger.token(generation: generation?.current, ownAdvances: state.ownAdvances)
        }
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
        guard pool != nil, maxAge > 0, body.count <= Self.maxInflatedBytes else { return }
        await store(key, body: body, encoded: BodyCompression.encode(body), maxAge: maxAge, tags: tags, token: token, now: now)
    }

    /// ``store(_:body:maxAge:tags:token:now:)`` with the body already encoded for the file.
    func store(
        _ key: CacheKey, body: [UInt8], encoded stored: (bytes: [UInt8], encoding: BodyCompression.Encoding), maxAge: Int,
        etag knownETag: String? = nil, tags: Set<String>, token: CacheToken, now: Date = Date()
    ) async {
        guard pool != nil, maxAge > 0, body.count <= Self.maxInflatedBytes else { return }
        let size = CacheSchema.accountedSize(storedBodyBytes: stored.bytes.count, tagCount: tags.count)
        guard size <= options.maxBytes else { return }
        guard admits(token, tags: tags) else { return }
        let digest = key.digest
        let etag = knownETag ?? CachedResponse.etag(for: body)
        let time = now.timeIntervalSince1970
        let (entryTouches, queryTouches) = takeTouches()
        let maxBytes = options.maxBytes
        let sweepBefore = time - options.staleGrace
        do {
            // One transaction: the row and its packed tag set, both appended (see ``TagIndex``).
            let (admitted, evicted, dropped) = try await writeWithTagIndex { db, index -> (Bool, [String], Bool) in
                try Self.apply(entryTouches: entryTouches, queryTouches: queryTouches, in: db)
                guard self.admits(token, tags: tags) else { return (false, [], false) }
                var dropped = false
                // It replaces the key's previous entry.
                if let previous = try Int64.fetchOne(db.cachedStatement(sql: CacheSchema.entryID), arguments: [digest]) {
                    try CacheSchema.dropEntry(id: previous, in: db)
                    dropped = true
                }
                try db.cachedStatement(sql: CacheSchema.insertEntry).execute(arguments: [
                    digest, Data(stored.bytes), stored.encoding.rawValue, etag, time, time + Double(maxAge), maxAge, time, size,
                ])
                let id = db.lastInsertedRowID
                if !tags.isEmpty {
                    let keys = tags.map(TagKey.of)
                    try db.cachedStatement(sql: CacheSchema.insertTagSet).execute(arguments: [id, Data(TagIndex.pack(keys))])
                    index.add(entry: id, tags: keys)
                }
                dropped = try Self.sweepExpired(before: sweepBefore, in: db) || dropped
                let evicted = try Self.evict(toFit: maxBytes, in: db)
                return (true, evicted, dropped || !evicted.isEmpty)
            }
            if dropped { scheduleReclaim() }
            if !evicted.isEmpty {
                state.withLock { $0.counters.evictions += evicted.count }
            }
            hot.withLock { hot in
                for digest in evicted { hot.remove(digest) }
                // Kept under the generation of the token: if any invalidation ran since the
                // computation began, the copy is never served.
                if admitted, let generation = token.generation, !evicted.contains(digest) {
                    hot.keep(
                        digest,
                        CachedResponse(
                            body: body, etag: etag, storedAt: now, expiresAt: Date(timeIntervalSince1970: time + Double(maxAge)),
                            isStale: false, maxAge: maxAge),
                        generation: generation)
                }
            }
            writeSucceeded()
        } catch {
            writeFailed("store", error: error)
        }
    }

    /// ``store(_:body:maxAge:tags:token:now:)`` in a task of its own, off the caller's path,
    /// unless ``ResponseCacheOptions/maxPendingStores`` stores are already waiting for the file's
    /// writer: then this answer is not cached (counted in ``CacheCounters/droppedStores``).
    ///
    /// The cache is worth less than the memory its queue would hold: when stores arrive faster
    /// than the writer commits them (a burst of misses, writes that invalidate much), an
    /// unbounded queue of tasks, each holding a response body, grows without end.
    ///
    /// One task drains the queue, a store at a time: were each store a task of its own, each
    /// would wait in the file's writer queue, and a mutation's invalidation behind all of them.
    /// This way it waits for one store at most.
    ///
    /// The answer is kept in memory at once (see ``keepInMemory(_:body:etag:maxAge:token:now:)``),
    /// so the requests for its key that arrive while it waits for the writer are hits.
    public func storeInBackground(
        _ key: CacheKey, body: [UInt8], etag: String? = nil, maxAge: Int, tags: Set<String>, token: CacheToken,
        now: Date = Date()
    ) {
        guard pool != nil, maxAge > 0 else { return }
        let digest = key.digest
        let etag = etag ?? CachedResponse.etag(for: body)
        keepInMemory(digest, body: body, etag: etag, maxAge: maxAge, token: token, now: now)
        let admitted = state.withLock { state -> Bool in
            // The same key already on its way (identical misses of a burst) need not be written
            // twice; the writer's time goes to other keys.
            guard state.pendingStores < options.maxPendingStores, !state.pendingDigests.contains(digest) else {
                state.counters.droppedStores += 1
                return false
            }
            state.pendingStores += 1
            state.pendingDigests.insert(digest)
            return true
        }
        guard admitted else { return }
        Task {
            // Deflated here, on any core, so that the one drainer spends its time on the file
            // (a graph's answer takes ~0.9 ms to deflate, a third of its store).
            let encoded = BodyCompression.encode(body)
            let startDrainer = state.withLock { state -> Bool in
                state.queuedStores.append(
                    QueuedStore(key: key, body: body, encoded: encoded, etag: etag, maxAge: maxAge, tags: tags, token: token))
                defer { state.draining = true }
                return !state.draining
            }
            if startDrainer { await self.drainStores() }
        }
    }

    /// Keeps a computed answer in memory before the file has it, under the generation of the
    /// token taken before it was computed, when no invalidation has begun since.
    ///
    /// A burst of misses for many keys (1,000 random profile cards) queues their stores behind
    /// the file's one writer for seconds; without this, every request for a key in that time
    /// missed and computed it again. The copy obeys the rule of every copy in memory: it is served
    /// only while the shared generation is the token's, so an invalidation in any process, even
    /// one that begins right after the check below, makes it unservable (``advanceGeneration()``
    /// clears the memory, and a copy kept after that has an older generation).
    private func keepInMemory(_ digest: String, body: [UInt8], etag: String, maxAge: Int, token: CacheToken, now: Date) {
        guard let generation = token.generation, body.count <= Self.maxInflatedBytes, nothingInvalidated(since: token),
              !state.withLock({ $0.suspended })
        else { return }
        let response = CachedResponse(
            body: body, etag: etag, storedAt: now, expiresAt: now.addingTimeInterval(Double(maxAge)), isStale: false,
            maxAge: maxAge)
        hot.withLock { $0.keep(digest, response, generation: generation) }
    }

    /// Stores queued responses one after the other until none is left.
    private func drainStores() async {
        while let next = state.withLock({ state -> QueuedStore? in
            guard !state.queuedStores.isEmpty else {
                state.draining = false
                return nil
            }
            return state.queuedStores.removeFirst()
        }) {
            await store(
                next.key, body: next.body, encoded: next.encoded, maxAge: next.maxAge, etag: next.etag, tags: next.tags,
                token: next.token)
            state.withLock { state in
                state.pendingStores -= 1
                state.pendingDigests.remove(next.key.digest)
            }
        }
    }

    /// Whether no invalidation, in this process or any other on the file, has begun since `token`
    /// was taken: only then may a computation begun under it answer a request arriving now
    /// (identical misses computed once). Tags are not known before execution ends, so any
    /// invalidation counts.
    public func nothingInvalidated(since token: CacheToken) -> Bool {
        state.withLock { state in
            state.ledger.epoch == token.epoch && generation?.current == token.generation
        }
    }

    /// Whether an entry computed under `token` with `tags` may be stored: none of its tags was
    /// invalidated here since, and no other process on the file invalidated anything since
    /// (their tags are unknown here, so any of theirs refuses the entry).
    func admits(_ token: CacheToken, tags: Set<String>) -> Bool {
        state.withLock { state in
            guard state.ledger.admits(token, tags: tags) else { return false }
            guard let generation, let then = token.generation else { return true }
            let moved = generation.current &- then
            let ownMoves = state.ownAdvances &- token.ownAdvances
            return moved == ownMoves
        }
    }

    /// Deletes the rows of dead entries, then of least recently used ones, until the accounted
    /// size is within `maxBytes`; their tags are left to the reclaimer.
    /// - Returns: the digests of the live entries evicted.
    static func evict(toFit maxBytes: Int, in db: Database) throws -> [String] {
        var evicted: [String] = []
        let total = try db.cachedStatement(sql: CacheSchema.totalBytes)
        let oldest = try db.cachedStatement(sql: CacheSchema.leastRecentlyUsed)
        let deadRows = try db.cachedStatement(sql: CacheSchema.deadRows)
        let deleteRow = try db.cachedStatement(sql: CacheSchema.deleteEntryRow)
        while let bytes = try Int.fetchOne(total), bytes > maxBytes {
            // What an invalidation left for the reclaimer goes first: it is worth nothing.
            let dead = try Int64.fetchAll(deadRows, arguments: [8])
            if !dead.isEmpty {
                for id in dead { try deleteRow.execute(arguments: [id]) }
                continue
            }
            let victims = try Row.fetchAll(oldest, arguments: [32]).map { (id: $0[0] as Int64, digest: $0[1] as String?) }
            if victims.isEmpty { break }
            for (id, digest) in victims {
                try CacheSchema.dropEntry(id: id, in: db)
                if let digest { evicted.append(digest) }
                if let now = try Int.fetchOne(total), now <= maxBytes { return evicted }
            }
        }
        return evicted
    }

    /// One step of reclaiming: up to ``CacheSchema/reclaimBatch`` dead entries lose their row,
    /// their tag set, their place in `index` and their mark.
    /// - Returns: whether dead entries remain.
    static func reclaimStep(in db: Database, index: inout TagIndex) throws -> Bool {
        let dead = try Int64.fetchAll(db.cachedStatement(sql: CacheSchema.someDead), arguments: [CacheSchema.reclaimBatch])
        for id in dead {
            if let tags = try Data.fetchOne(db.cachedStatement(sql: CacheSchema.tagSet), arguments: [id]) {
                index.remove(entry: id, tags: TagIndex.unpack(tags))
            }
            try db.cachedStatement(sql: CacheSchema.deleteEntryRow).execute(arguments: [id])
            try db.cachedStatement(sql: CacheSchema.deleteTagSet).execute(arguments: [id])
            try db.cachedStatement(sql: CacheSchema.unmarkDead).execute(arguments: [id])
        }
        return try Bool.fetchOne(db, sql: CacheSchema.anyDead) ?? false
    }

    /// Drops up to ``deleteBatch`` rows expired before `time` (tags to the reclaimer).
    /// - Returns: whether any was dropped.
    static func sweepExpired(before time: Double, in db: Database) throws -> Bool {
        let ids = try Int64.fetchAll(db.cachedStatement(sql: CacheSchema.someExpired), arguments: [time, deleteBatch])
        for id in ids {
            try CacheSchema.dropEntry(id: id, in: db)
        }
        return !ids.isEmpty
    }

    /// Runs `body` in a write transaction with ``tagIndex``, first caught up with every tag set
    /// committed to the file. If the transaction fails, the index may hold what was rolled back:
    /// it is rebuilt from the file before its next use.
    func writeWithTagIndex<T: Sendable>(_ body: @escaping @Sendable (Database, inout TagIndex) throws -> T) async throws -> T {
        guard let pool else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "response cache disabled") }
        do {
            return try await pool.write { db in
                try self.tagIndex.withLock { index in
                    try index.catchUp(db)
                    return try body(db, &index)
                }
            }
        } catch {
            tagIndex.withLock { $0.markStale() }
            throw error
        }
    }

    // MARK: Invalidation

    /// Makes every entry carrying any of `tags` unservable, committed before it returns, and
    /// refuses later stores of computations that began before it (see ``CacheToken``).
    ///
    /// The entries, found in this process's ``TagIndex``, are marked dead, one small row each;
    /// deleting them with their tag sets is left to a background task
    /// (``reclaimDeadEntries()``), so the caller, a mutation waiting to answer, waits for its
    /// marks and at most one other short write, however much the cache holds.
    ///
    /// If the delete cannot be committed, lookups are turned off (they could return entries that
    /// should be gone) and an error is logged.
    /// - Parameter tags: entity tags (`Profile:<id>`) and list tags (`followers:<id>`, `search`).
    public func invalidate(tags: Set<String>) async {
        guard !tags.isEmpty else { return }
        // Record first: a store whose admission check runs after this line is refused; one that
        // ran before commits before our delete below takes the writer, and is deleted by it.
        state.withLock { $0.ledger.invalidate(tags) }
        guard pool != nil else { return }
        do {
            try await writeWithTagIndex { db, index in
                // Inside the write transaction, which holds the file's write lock: another
                // process's store that takes the lock after ours sees the move and refuses a
                // computation that began before it. The index has read every tag set committed
                // before this transaction, in any process.
                self.advanceGeneration()
                let mark = try db.cachedStatement(sql: CacheSchema.markDead)
                for tag in tags {
                    for entry in index.entries(tagged: TagKey.of(tag)) {
                        try mark.execute(arguments: [entry])
                    }
                }
            }
            writeSucceeded()
            scheduleReclaim()
        } catch {
            writeFailed("invalidation", error: error, lookupsOff: true)
        }
        // And after the delete committed: a lookup that read the generation between the two
        // moves may have read the file before the delete, and must not keep what it found.
        advanceGeneration()
    }

    /// Starts the background reclaimer unless it is running (then it looks again when done).
    private func scheduleReclaim() {
        let start = state.withLock { state -> Bool in
            if state.reclaiming {
                state.reclaimAgain = true
                return false
            }
            state.reclaiming = true
            return true
        }
        if start { Task { await self.reclaimDeadEntries() } }
    }

    /// Deletes dead entries with their tag sets, ``CacheSchema/reclaimBatch`` per write
    /// transaction, until none is left (in any process's name: marks left by a process that
    /// died go too).
    ///
    /// A failure stops it quietly: a dead entry is never served, it only takes room until a
    /// later run or eviction reclaims it.
    func reclaimDeadEntries() async {
        guard pool != nil else { return }
        while true {
            var more = false
            do {
                more = try await writeWithTagIndex { db, index in try Self.reclaimStep(in: db, index: &index) }
            } catch {
                logger.debug("response cache: reclaiming dead entries failed", metadata: ["error": "\(error)"])
            }
            if more { continue }
            let again = state.withLock { state -> Bool in
                if state.reclaimAgain {
                    state.reclaimAgain = false
                    return true
                }
                state.reclaiming = false
                return false
            }
            if !again { return }
        }
    }

    // MARK: Writes to the backing store

    /// Marks the start of a write to the backing store whose ``invalidate(tags:)`` will follow.
    /// Pair it with ``endWrite()`` once that invalidation has returned.
    ///
    /// The count of writes in progress lives in the generation file shared by every process on
    /// the cache. A process that dies between a committed write and its invalidation leaves it
    /// above zero, and the next process that opens the cache alone clears every entry, so that
    /// nothing older than the store is served after a restart.
    public func beginWrite() { generation?.beginWrite() }

    /// Ends a write begun with ``beginWrite()``, after its invalidation.
    public func endWrite() { generation?.endWrite() }

    /// Makes every copy kept in memory, in this process and in others, unservable, and refuses
    /// stores of computations that began before (see ``admits(_:tags:)``).
    private func advanceGeneration() {
        state.withLock { state in
            // Under the lock that admissions take, so they see both moves or neither.
            state.ownAdvances &+= 1
            generation?.advance()
        }
        hot.withLock { $0.removeAll() }
    }

    /// Stops answering lookups (each is a miss) until ``resumeLookups()``: for when the
    /// invalidations of other writers may be missed (the change feed that reports them is not
    /// connected). Stores go on; ``resumeLookups()`` clears them with everything else.
    public func suspendLookups() {
        state.withLock {
            $0.suspended = true
            $0.suspensions += 1
        }
        hot.withLock { $0.removeAll() }
    }

    /// Clears every response entry, then answers lookups again: for when the change feed is
    /// connected (again), so that nothing stored before it missed an invalidation is served.
    public func resumeLookups() async {
        let epoch = state.withLock { $0.suspensions }
        await removeAll()
        state.withLock { state in
            if state.suspensions == epoch { state.suspended = false }
        }
    }

    /// Whether lookups are suspended (see ``suspendLookups()``).
    public var isSuspended: Bool { state.withLock { $0.suspended } }

    /// Removes every response entry (persisted queries stay) and refuses stores of computations
    /// that began before it. A success re-enables lookups after a failed invalidation.
    public func removeAll() async {
        state.withLock {
            $0.ledger.invalidateAll()
            $0.entryTouches.removeAll()
        }
        guard pool != nil else { return }
        do {
            try await writeWithTagIndex { db, index in
                self.advanceGeneration()
                try db.execute(sql: CacheSchema.clearAll)
                index.markStale()
            }
            let wasOff = state.withLock { state -> Bool in
                defer { state.invalidationFailed = false }
                return state.invalidationFailed
            }
            generation?.isPoisoned = false
            writeSucceeded()
            if wasOff { logger.notice("response cache cleared; lookups enabled again") }
        } catch {
            writeFailed("clear", error: error, lookupsOff: true)
        }
        advanceGeneration()
    }

    // MARK: Write failures (a full disk, an I/O error)

    /// Counts a failed write (with `lookupsOff`, one that leaves entries that should be gone:
    /// lookups stop, in every process on the file), and logs it if it is the first since the last
    /// success or the one that turns lookups off: on a full disk every request would otherwise
    /// log the same line.
    private func writeFailed(_ what: String, error: any Error, lookupsOff: Bool = false) {
        let first = state.withLock { state -> Bool in
            state.counters.writeFailures += 1
            let news = !state.writesFailing || (lookupsOff && !state.invalidationFailed)
            state.writesFailing = true
            if lookupsOff { state.invalidationFailed = true }
            return news
        }
        if lookupsOff { generation?.isPoisoned = true }
        guard first else { return }
        let message: Logger.Message =
            lookupsOff
            ? "response cache \(what) failed; lookups off until the cache file can be cleared (retried in the background)"
            : "response cache writes failing; requests are served without storing their answers"
        logger.log(level: lookupsOff ? .error : .warning, message, metadata: ["error": "\(error)"])
    }

    private func writeSucceeded() {
        let recovered = state.withLock { state -> Bool in
            defer { state.writesFailing = false }
            return state.writesFailing
        }
        if recovered { logger.notice("response cache writes work again") }
    }

    /// With lookups off after a failed invalidation, starts a background ``removeAll()`` if none
    /// was started within ``ResponseCacheOptions/recoveryInterval``.
    private func startRecoveryIfDue() {
        let now = Date().timeIntervalSince1970
        let due = state.withLock { state -> Bool in
            guard now - state.lastRecoveryAttempt >= options.recoveryInterval else { return false }
            state.lastRecoveryAttempt = now
            return true
        }
        if due { Task { await self.removeAll() } }
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
