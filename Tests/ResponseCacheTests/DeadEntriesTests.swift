import Foundation
import GRDB
import Testing
@testable import ResponseCache

/// Invalidation marks entries dead and leaves their deletion to the background (issue #17: a
/// mutation waited seconds for deletes that cascaded through every tag of a full cache).
@Suite("Dead entries and their reclaiming")
struct DeadEntriesTests {
    /// The tags of a follower-graph-sized answer: one shared list tag and `count` profiles.
    func graphTags(_ count: Int, shared: String = "followers:1") -> Set<String> {
        Set((0..<count).map { "Profile:\($0)" }).union([shared])
    }

    func rows(_ store: ResponseCacheStore) async throws -> (entries: Int, tags: Int, dead: Int, bytes: Int) {
        try #require(
            try await store.pool?.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(length(tags) / 8), 0) FROM entry_tag_sets") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dead_entries") ?? -1,
                    try Int.fetchOne(db, sql: CacheSchema.totalBytes) ?? -1
                )
            })
    }

    @Test("an invalidated entry is never served, here or by another store on the file, and is then deleted with its tags")
    func invalidatedThenReclaimed() async throws {
        let (store, recorder, path) = try makeStore()
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        for i in 0..<6 {
            await store.store(
                key("graph \(i)"), body: bytes("graph \(i)"), maxAge: 60, tags: graphTags(550), token: store.beginComputation(), now: t0)
        }
        await store.store(key("kept"), body: bytes("kept"), maxAge: 60, tags: ["Profile:9999"], token: store.beginComputation(), now: t0)
        #expect(try await rows(store).tags == 6 * 551 + 1)
        await store.invalidate(tags: ["followers:1"])
        for i in 0..<6 {
            #expect(await store.lookup(key("graph \(i)"), now: t0) == nil)
            #expect(await other.lookup(key("graph \(i)"), now: t0) == nil)
        }
        await store.reclaimDeadEntries()
        let after = try await rows(store)
        #expect(after.entries == 1)
        #expect(after.tags == 1)
        #expect(after.dead == 0)
        #expect(after.bytes == CacheSchema.accountedSize(storedBodyBytes: 4, tagCount: 1))
        #expect(await other.lookup(key("kept"), now: t0)?.body == bytes("kept"))
    }

    @Test("a store records all of an entry's tags, and any one of them invalidates the entry",
          arguments: [0, 127, 128, 300, 599])
    func everyTagRecorded(_ which: Int) async throws {
        let (store, _, _) = try makeStore()
        let tags = (0..<600).map { "Profile:\($0)" }
        await store.store(key("big"), body: bytes("big"), maxAge: 60, tags: Set(tags), token: store.beginComputation(), now: t0)
        #expect(try await rows(store).tags == 600)
        #expect(await store.lookup(key("big"), now: t0) != nil)
        await store.invalidate(tags: [tags[which]])
        #expect(await store.lookup(key("big"), now: t0) == nil)
        await store.reclaimDeadEntries()
        #expect(try await rows(store) == (0, 0, 0, 0))
    }

    @Test("a key stored again after its invalidation serves the new body, before and after reclaiming")
    func storedAgainAfterInvalidation() async throws {
        let (store, _, _) = try makeStore()
        await store.store(key("k"), body: bytes("old"), maxAge: 60, tags: ["Profile:1"], token: store.beginComputation(), now: t0)
        await store.invalidate(tags: ["Profile:1"])
        await store.store(key("k"), body: bytes("new"), maxAge: 60, tags: ["Profile:1"], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(key("k"), now: t0)?.body == bytes("new"))
        await store.reclaimDeadEntries()
        #expect(await store.lookup(key("k"), now: t0)?.body == bytes("new"))
        #expect(try await rows(store).dead == 0)
    }

    @Test("past maxBytes, dead entries' rows are deleted before any live one is evicted")
    func evictionTakesDeadFirst() async throws {
        let body = [UInt8](repeating: 0x41, count: 100)
        let (store, _, path) = try makeStore(options: .init(maxBytes: 3 * CacheSchema.accountedSize(storedBodyBytes: 100, tagCount: 0)))
        for (i, name) in ["a", "b", "c"].enumerated() {
            await store.store(key(name), body: body, maxAge: 3600, tags: [], token: store.beginComputation(), now: t0.addingTimeInterval(Double(i)))
        }
        // Marked as an invalidation marks, without starting a reclaimer: "c" is the newest.
        let saboteur = try DatabaseQueue(path: path.path)
        try await saboteur.write { db in
            try db.execute(sql: "INSERT INTO dead_entries (entry) SELECT id FROM entries WHERE digest = ?", arguments: [key("c").digest])
        }
        await store.store(key("d"), body: body, maxAge: 3600, tags: [], token: store.beginComputation(), now: t0.addingTimeInterval(3))
        #expect(store.counters.evictions == 0)
        for name in ["a", "b", "d"] {
            #expect(await store.lookup(key(name), now: t0.addingTimeInterval(4))?.body == body)
        }
        await store.reclaimDeadEntries()
        #expect(try await rows(store).dead == 0)
    }

    @Test("an entry's tags count against maxBytes; one whose tags alone pass the bound is not stored")
    func tagsAreAccounted() async throws {
        let tags = graphTags(100)
        let size = CacheSchema.accountedSize(storedBodyBytes: 10, tagCount: tags.count)
        #expect(size >= 10 + CacheSchema.entryOverhead + 100 * 8)
        let (store, _, _) = try makeStore(options: .init(maxBytes: size))
        await store.store(key("fits"), body: [UInt8](repeating: 1, count: 10), maxAge: 60, tags: tags, token: store.beginComputation(), now: t0)
        #expect(try await rows(store).bytes == size)
        await store.store(
            key("too big"), body: [UInt8](repeating: 1, count: 10), maxAge: 60, tags: tags.union(["one more"]),
            token: store.beginComputation(), now: t0)
        #expect(await store.lookup(key("too big"), now: t0) == nil)
        #expect(await store.lookup(key("fits"), now: t0) != nil)
    }

    @Test("a key already waiting to be stored is not queued again: the writer's time goes to other keys")
    func backgroundStoresOnePerKey() async throws {
        let (store, _, path) = try makeStore()
        // The file's writer is held, so the first store of "same" is still waiting when the
        // next two arrive (a store takes well under a millisecond once it has the writer).
        let holder = try lockHolder(path)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        for i in 0..<3 {
            store.storeInBackground(key("same"), body: bytes("answer \(i)"), maxAge: 60, tags: ["Profile:1"], token: store.beginComputation())
        }
        store.storeInBackground(key("other"), body: bytes("other"), maxAge: 60, tags: ["Profile:2"], token: store.beginComputation())
        #expect(store.counters.droppedStores == 2)
        try holder.inDatabase { db in try db.execute(sql: "COMMIT") }
        for _ in 0..<500 where store.state.withLock({ $0.pendingStores }) > 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await store.lookup(key("same"))?.body == bytes("answer 0"))
        #expect(await store.lookup(key("other"))?.body == bytes("other"))
        // Once written, the key may be stored again.
        store.storeInBackground(key("same"), body: bytes("answer 3"), maxAge: 60, tags: ["Profile:1"], token: store.beginComputation())
        for _ in 0..<500 where store.state.withLock({ $0.pendingStores }) > 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(store.counters.droppedStores == 2)
        #expect(await store.lookup(key("same"))?.body == bytes("answer 3"))
    }

    @Test("background stores are all written by one drainer; past maxPendingStores they are dropped and counted")
    func backgroundStoresDrain() async throws {
        var options = ResponseCacheOptions()
        options.maxPendingStores = 8
        let (store, recorder, path) = try makeStore(options: options)
        // The file's writer is held while the 20 arrive, so none is written yet: 8 wait, 12 are
        // dropped. (Unheld, a loaded machine let the drainer keep pace and drop none.)
        let holder = try lockHolder(path)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        for i in 0..<20 {
            store.storeInBackground(key("bg \(i)"), body: bytes("body \(i)"), maxAge: 60, tags: graphTags(50), token: store.beginComputation())
        }
        let dropped = store.counters.droppedStores
        #expect(dropped == 12)
        try holder.inDatabase { db in try db.execute(sql: "COMMIT") }
        for _ in 0..<500 where store.state.withLock({ $0.pendingStores }) > 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        // The file has the ones not dropped (read through another store on it, with nothing in
        // memory); this process answers all 20 from the copies it kept when they were computed.
        let other = ResponseCacheStore.open(path: path, options: options, logger: recorder.logger)
        var stored = 0
        for i in 0..<20 where await other.lookup(key("bg \(i)")) != nil { stored += 1 }
        #expect(stored == 20 - dropped)
        var answered = 0
        for i in 0..<20 where await store.lookup(key("bg \(i)")) != nil { answered += 1 }
        #expect(answered == 20)
        #expect(store.state.withLock { !$0.draining && $0.queuedStores.isEmpty })
    }
}
