import Foundation
import GRDB
import Logging
import SocialGateway
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
        /// The CRC-32 of ``body`` when it is stored deflated.
        var crc32: UInt32?
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
}

/// The SQLite cache is the gateway's ``SocialGateway/ResponseCaching`` port's production implementation.
extension ResponseCacheStore: ResponseCaching {}
