import Foundation
import GRDB
import Logging
import SocialGateway
import Synchronization

// Lookups: memory first (hot entries), then one read of the file.
extension ResponseCacheStore {
    // MARK: Lookup

    /// The largest body kept (inflated): a response beyond it is not cached, and a stored row that
    /// would inflate beyond it reads as a miss.
    static let maxInflatedBytes = 128 << 20

    struct Found: Sendable {
        var body: [UInt8]
        var etag: String
        var storedAt: Double
        var expiresAt: Double
        var maxAge: Int
        var deflated: DeflatedBody?
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
            isStale: !isFresh, maxAge: found.maxAge, deflated: found.deflated)
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
    func countHit(_ digest: String, at time: Double) {
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
    static func readEntry(_ pool: DatabasePool, digest: String) async throws -> Found? {
        let stored = try await pool.unsafeRead { db -> (body: Data, encoding: Int64, crc32: Int64?, Found)? in
            let statement = try db.cachedStatement(sql: CacheSchema.selectEntry)
            guard let row = try Row.fetchOne(statement, arguments: [digest]) else { return nil }
            return (row[0], row[1], row[6], Found(body: [], etag: row[2], storedAt: row[3], expiresAt: row[4], maxAge: row[5]))
        }
        // Inflated off the reader's queue: the connection is free for the next lookup meanwhile.
        // A row that does not inflate reads as a miss; the next store of its key replaces it.
        guard let (data, encoding, crc32, entry) = stored else { return nil }
        let bytes = [UInt8](data)
        guard let body = BodyCompression.decode(bytes, encoding: encoding, limit: maxInflatedBytes) else { return nil }
        var found = entry
        found.body = body
        // The stored stream stays too, for HTTP to send compressed (a file written before v6 has
        // no CRC: computed here).
        if let encoding = BodyCompression.Encoding(rawValue: encoding) {
            found.deflated = BodyCompression.deflated(
                bytes, encoding: encoding, body: body, crc32: crc32.map { UInt32(truncatingIfNeeded: $0) })
        }
        return found
    }
}
