import Foundation
import GRDB
import Testing
@testable import ResponseCache

/// The tags of the file's entries, turned around in each process's memory (``TagIndex``):
/// an invalidation must find every entry that carries one of its tags, whoever stored it.
@Suite("Tag index")
struct TagIndexTests {
    @Test("a tag set is read back as it was packed, negative keys and all")
    func packRoundTrip() {
        let keys: [Int64] = [0, 1, -1, .max, .min, TagKey.of("Profile:a11ce000-0000-4000-8000-000000000001")]
        #expect(TagIndex.unpack(Data(TagIndex.pack(keys))) == keys)
        #expect(TagIndex.unpack(Data()) == [])
    }

    @Test("an entry stored through one store on the file is invalidated through another whose index was built before it")
    func foreignStoreIsCaughtUp() async throws {
        let (store, recorder, path) = try makeStore()
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        // The other store's index is built now, while the file holds nothing of this test.
        await other.invalidate(tags: ["Profile:unrelated"])
        await store.store(key("graph"), body: bytes("graph"), maxAge: 60, tags: ["Profile:1", "followers:2"], token: store.beginComputation(), now: t0)
        await store.store(key("kept"), body: bytes("kept"), maxAge: 60, tags: ["Profile:3"], token: store.beginComputation(), now: t0)
        #expect(await other.lookup(key("graph"), now: t0)?.body == bytes("graph"))
        await other.invalidate(tags: ["followers:2"])
        #expect(await store.lookup(key("graph"), now: t0) == nil)
        #expect(await other.lookup(key("graph"), now: t0) == nil)
        #expect(await store.lookup(key("kept"), now: t0)?.body == bytes("kept"))
    }

    @Test("a store reopened on a full file finds the entries stored before it started")
    func reopenedStoreReadsExistingTagSets() async throws {
        let (store, recorder, path) = try makeStore()
        for i in 0..<20 {
            await store.store(key("e\(i)"), body: bytes("e\(i)"), maxAge: 60, tags: ["Profile:\(i % 4)"], token: store.beginComputation(), now: t0)
        }
        let restarted = ResponseCacheStore.open(path: path, logger: recorder.logger)
        await restarted.invalidate(tags: ["Profile:1"])
        for i in 0..<20 {
            let found = await store.lookup(key("e\(i)"), now: t0)
            #expect((found == nil) == (i % 4 == 1), "entry \(i)")
        }
    }

    @Test("reclaiming takes an entry out of the index; an index holding far more ids than the file is rebuilt")
    func reclaimAndRebuild() throws {
        let db = try DatabaseQueue()
        try CacheSchema.migrator.migrate(db)
        var index = TagIndex()
        index.rebuildSlack = 3
        try db.write { db in
            try index.catchUp(db)
            for id in Int64(1)...3 {
                try db.execute(
                    sql: "INSERT INTO entries (id, digest, body, encoding, etag, stored_at, expires_at, max_age, last_access, size) VALUES (?, ?, x'', 0, '', 0, 1, 1, 0, 0)",
                    arguments: [id, "d\(id)"])
                try db.execute(sql: CacheSchema.insertTagSet, arguments: [id, Data(TagIndex.pack([10, 20 + id]))])
            }
        }
        try db.write { db in try index.catchUp(db) }
        #expect(Set(index.entries(tagged: 10)) == [1, 2, 3])
        #expect(index.entries(tagged: 22) == [2])
        // This process reclaims entry 2: it leaves every list it was on.
        try db.write { db in
            try db.execute(sql: CacheSchema.markDead, arguments: [2])
            _ = try ResponseCacheStore.reclaimStep(in: db, index: &index)
        }
        #expect(Set(index.entries(tagged: 10)) == [1, 3])
        #expect(index.entries(tagged: 22) == [])
        #expect(index.postingCount == 4)
        // Another process deletes the rest: this index still lists them (harmless, they are
        // gone), until it holds more than twice the file's tags plus the slack, then it rebuilds.
        try db.write { db in try db.execute(sql: "DELETE FROM entry_tag_sets; DELETE FROM entries") }
        try db.write { db in try index.catchUp(db) }
        #expect(index.postingCount == 0)
        #expect(index.entries(tagged: 10) == [])
    }

    @Test("after a write transaction that failed, the index is read again from the file before its next use")
    func failedWriteMakesIndexStale() async throws {
        let (store, _, path) = try makeStore()
        await store.store(key("a"), body: bytes("a"), maxAge: 60, tags: ["Profile:1"], token: store.beginComputation(), now: t0)
        let saboteur = try DatabaseQueue(path: path.path)
        try await saboteur.write { db in try db.execute(sql: "ALTER TABLE entry_tag_sets RENAME TO broken_sets") }
        await store.store(key("b"), body: bytes("b"), maxAge: 60, tags: ["Profile:2"], token: store.beginComputation(), now: t0)
        #expect(store.tagIndex.withLock { $0.isStale })
        try await saboteur.write { db in try db.execute(sql: "ALTER TABLE broken_sets RENAME TO entry_tag_sets") }
        await store.invalidate(tags: ["Profile:1"])
        #expect(store.tagIndex.withLock { !$0.isStale })
        #expect(await store.lookup(key("a"), now: t0) == nil)
    }
}
