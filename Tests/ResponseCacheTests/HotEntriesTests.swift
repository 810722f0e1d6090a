import Foundation
import GRDB
import Testing
@testable import ResponseCache
import SocialGateway

/// Hits from memory, and the shared generation that keeps them correct across processes.
@Suite("Hot entries in memory and the shared generation")
struct HotEntriesTests {
    @Test("a hot entry is answered from memory until an invalidation in any store on the file moves the generation")
    func servedFromMemoryUntilGenerationMoves() async throws {
        let (store, recorder, path) = try makeStore()
        await store.store(key("a"), body: bytes("a"), maxAge: 60, tags: ["Profile:1"], token: store.beginComputation(), now: t0)
        // Remove the row behind the store's back, without an invalidation: the copy in memory
        // still answers, so this lookup did not read the file.
        let saboteur = try DatabaseQueue(path: path.path)
        try await saboteur.write { db in try db.execute(sql: "DELETE FROM entry_tag_sets; DELETE FROM entries") }
        #expect(await store.lookup(key("a"), now: t0)?.body == bytes("a"))
        // Any invalidation through another store on the same file (another process, as far as
        // this store knows) makes every copy in memory unservable.
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        await other.invalidate(tags: ["Profile:unrelated"])
        #expect(await store.lookup(key("a"), now: t0) == nil)
    }

    @Test("an entry read from the file is kept in memory and expires there at its expiry")
    func keptAfterFileReadAndExpires() async throws {
        let (store, recorder, path) = try makeStore()
        let writer = ResponseCacheStore.open(path: path, logger: recorder.logger)
        await writer.store(key("b"), body: bytes("b"), maxAge: 10, tags: [], token: writer.beginComputation(), now: t0)
        #expect(await store.lookup(key("b"), now: t0)?.body == bytes("b"))
        #expect(store.hot.withLock { $0.count } == 1)
        #expect(await store.lookup(key("b"), now: t0.addingTimeInterval(11)) == nil)
        #expect(store.hot.withLock { $0.count } == 0)
    }

    @Test("a response computed before an invalidation through another store on the file is not stored after it")
    func foreignInvalidationRefusesOlderComputation() async throws {
        let (store, recorder, path) = try makeStore()
        let token = store.beginComputation()
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        await other.invalidate(tags: ["Profile:1"])
        await store.store(key("c"), body: bytes("old"), maxAge: 60, tags: ["Profile:1"], token: token, now: t0)
        #expect(await store.lookup(key("c"), now: t0) == nil)
        #expect(await other.lookup(key("c"), now: t0) == nil)
        // This store's own invalidations of other tags still do not refuse anything.
        let next = store.beginComputation()
        await store.invalidate(tags: ["Profile:2"])
        await store.store(key("c"), body: bytes("new"), maxAge: 60, tags: ["Profile:1"], token: next, now: t0)
        #expect(await other.lookup(key("c"), now: t0)?.body == bytes("new"))
    }

    @Test("a failed invalidation in one store turns lookups off in every store on the file until a removeAll succeeds")
    func failedInvalidationReachesOtherProcesses() async throws {
        // No background recovery here: a lookup that finds lookups off starts a removeAll of its
        // own, which would race the store of "f" below. This test is about the explicit clear.
        var options = ResponseCacheOptions()
        options.recoveryInterval = .infinity
        let (store, recorder, path) = try makeStore(options: options)
        await store.store(key("e"), body: bytes("e"), maxAge: 60, tags: ["Profile:5"], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(key("e"), now: t0) != nil)
        let other = ResponseCacheStore.open(path: path, options: options, logger: recorder.logger)
        let saboteur = try DatabaseQueue(path: path.path)
        try await saboteur.write { db in try db.execute(sql: "ALTER TABLE entry_tag_sets RENAME TO broken_tags") }
        await other.invalidate(tags: ["Profile:5"])
        #expect(recorder.warnings.contains { $0.contains("invalidation failed") })
        // The entry the failed invalidation should have removed is not served, here or there.
        #expect(await store.lookup(key("e"), now: t0) == nil)
        #expect(await other.lookup(key("e"), now: t0) == nil)
        try await saboteur.write { db in try db.execute(sql: "ALTER TABLE broken_tags RENAME TO entry_tag_sets") }
        await other.removeAll()
        await store.store(key("f"), body: bytes("f"), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(key("f"), now: t0)?.body == bytes("f"))
        #expect(await other.lookup(key("e"), now: t0) == nil)
    }

    @Test("a cache whose generation file cannot be mapped is disabled with a warning, never half-shared")
    func unmappableGenerationDisables() throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("cache.sqlite")
        // A directory where the generation file should be: open(2) with O_RDWR fails on it.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("cache.sqlite-generation"), withIntermediateDirectories: false)
        let recorder = LogRecorder()
        let store = ResponseCacheStore.open(path: path, logger: recorder.logger)
        #expect(!store.isEnabled)
        #expect(recorder.warnings.contains { $0.contains("cannot map its generation file") })
    }

    @Test("an answer stored in the background is a hit at once, while the file's writer is still busy (issue #17)")
    func backgroundStoreHitsBeforeTheFileHasIt() async throws {
        let (store, _, path) = try makeStore()
        // Another connection holds the file's write lock: the store below waits for it.
        let saboteur = try lockHolder(path)
        try saboteur.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        store.storeInBackground(key("g"), body: bytes("g"), maxAge: 60, tags: ["Profile:7"], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(key("g"), now: t0)?.body == bytes("g"))
        let published = try saboteur.inDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entries WHERE digest IS NOT NULL") }
        #expect(published == 0)
        try saboteur.inDatabase { db in try db.execute(sql: "COMMIT") }
        // An invalidation makes the copy unservable, whether or not its store has reached the file.
        await store.invalidate(tags: ["Profile:7"])
        #expect(await store.lookup(key("g"), now: t0) == nil)
    }

    @Test("an answer computed before any invalidation began is not kept in memory before the file admits it")
    func backgroundStoreAfterInvalidationWaitsForTheFile() async throws {
        let (store, _, path) = try makeStore()
        let token = store.beginComputation()
        await store.invalidate(tags: ["Profile:8"])
        let saboteur = try lockHolder(path)
        try saboteur.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        store.storeInBackground(key("h"), body: bytes("h"), maxAge: 60, tags: ["Profile:8"], token: token, now: t0)
        #expect(await store.lookup(key("h"), now: t0) == nil)
        try saboteur.inDatabase { db in try db.execute(sql: "COMMIT") }
    }

    @Test("memoryEntries 0 keeps nothing in memory; hits come from the file")
    func memoryOff() async throws {
        let (store, _, _) = try makeStore(options: .init(memoryEntries: 0))
        await store.store(key("d"), body: bytes("d"), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(key("d"), now: t0)?.body == bytes("d"))
        #expect(store.hot.withLock { $0.count } == 0)
        #expect(store.counters.hits == 1)
    }

    @Test("the memory bound drops the least recently used copies, never more than allowed")
    func memoryBound() {
        var hot = HotEntries(maxEntries: 4, maxBytes: 1 << 20)
        let response = CachedResponse(body: bytes("x"), etag: "\"x\"", storedAt: t0, expiresAt: t0 + 60, isStale: false, maxAge: 60)
        for name in ["a", "b", "c", "d"] { hot.keep(name, response, generation: 7) }
        #expect(hot.servable("a", generation: 7, at: t0.timeIntervalSince1970) != nil)
        hot.keep("e", response, generation: 7)
        #expect(hot.count == 4)
        #expect(hot.servable("b", generation: 7, at: t0.timeIntervalSince1970) == nil)
        #expect(hot.servable("a", generation: 7, at: t0.timeIntervalSince1970) != nil)
        #expect(hot.servable("e", generation: 8, at: t0.timeIntervalSince1970) == nil)
    }
}
