import Foundation
import GRDB
import Logging
import SocialGateway
import Synchronization

// Storing answers: the computation token, foreground stores and the background drainer.
extension ResponseCacheStore {
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
        let encoded = BodyCompression.encode(body)
        let crc32 = encoded.encoding == .deflate ? BodyCompression.crc32(body) : nil
        await store(key, body: body, encoded: encoded, crc32: crc32, maxAge: maxAge, tags: tags, token: token, now: now)
    }

    /// ``store(_:body:maxAge:tags:token:now:)`` with the body already encoded for the file, and
    /// its CRC-32 when deflated.
    func store(
        _ key: CacheKey, body: [UInt8], encoded stored: (bytes: [UInt8], encoding: BodyCompression.Encoding), crc32: UInt32?,
        maxAge: Int,
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
                    stored.encoding == .deflate ? crc32.map { Int64($0) } : nil,
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
                            isStale: false, maxAge: maxAge,
                            deflated: BodyCompression.deflated(stored.bytes, encoding: stored.encoding, body: body, crc32: crc32)),
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
            let crc32 = encoded.encoding == .deflate ? BodyCompression.crc32(body) : nil
            // The copy kept in memory above gets the deflated bytes now, for compressed hits
            // before the drainer has stored it.
            if let deflated = BodyCompression.deflated(encoded.bytes, encoding: encoded.encoding, body: body, crc32: crc32) {
                hot.withLock { $0.attach(digest, deflated, etag: etag) }
            }
            let startDrainer = state.withLock { state -> Bool in
                state.queuedStores.append(
                    QueuedStore(
                        key: key, body: body, encoded: encoded, crc32: crc32, etag: etag, maxAge: maxAge, tags: tags, token: token))
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
    func keepInMemory(_ digest: String, body: [UInt8], etag: String, maxAge: Int, token: CacheToken, now: Date) {
        guard let generation = token.generation, body.count <= Self.maxInflatedBytes, nothingInvalidated(since: token),
              !state.withLock({ $0.suspended })
        else { return }
        let response = CachedResponse(
            body: body, etag: etag, storedAt: now, expiresAt: now.addingTimeInterval(Double(maxAge)), isStale: false,
            maxAge: maxAge)
        hot.withLock { $0.keep(digest, response, generation: generation) }
    }

    /// Stores queued responses one after the other until none is left.
    func drainStores() async {
        while let next = state.withLock({ state -> QueuedStore? in
            guard !state.queuedStores.isEmpty else {
                state.draining = false
                return nil
            }
            return state.queuedStores.removeFirst()
        }) {
            await store(
                next.key, body: next.body, encoded: next.encoded, crc32: next.crc32, maxAge: next.maxAge, etag: next.etag, tags: next.tags,
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
}
