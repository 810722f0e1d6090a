import Foundation
import Testing
@testable import ResponseCache

@Suite("Size bound and LRU eviction")
struct EvictionTests {
    /// Room for exactly three 100-byte bodies.
    static let options = ResponseCacheOptions(maxBytes: 3 * (100 + CacheSchema.entryOverhead))
    static let body = [UInt8](repeating: 0x41, count: 100)

    func put(_ store: ResponseCacheStore, _ name: String, at seconds: Double) async {
        await store.store(key(name), body: Self.body, maxAge: 3600, tags: [], token: store.beginComputation(), now: t0.addingTimeInterval(seconds))
    }

    func present(_ store: ResponseCacheStore, _ names: [String]) async -> [String] {
        var found: [String] = []
        for name in names where await store.lookup(key(name), now: t0.addingTimeInterval(100)) != nil {
            found.append(name)
        }
        return found
    }

    @Test("past maxBytes the least recently stored entry is evicted and counted")
    func evictsOldest() async throws {
        let (store, _, _) = try makeStore(options: Self.options)
        for (i, name) in ["a", "b", "c", "d"].enumerated() {
            await put(store, name, at: Double(i))
        }
        #expect(store.counters.evictions == 1)
        #expect(await present(store, ["a", "b", "c", "d"]) == ["b", "c", "d"])
    }

    @Test("eviction is by last access: a recently read entry outlives a newer unread one")
    func lruByLastAccess() async throws {
        let (store, _, _) = try makeStore(options: Self.options)
        await put(store, "a", at: 0)
        await put(store, "b", at: 1)
        await put(store, "c", at: 2)
        #expect(await store.lookup(key("a"), now: t0.addingTimeInterval(3)) != nil)
        await put(store, "d", at: 4)
        #expect(store.counters.evictions == 1)
        #expect(await present(store, ["a", "b", "c", "d"]) == ["a", "c", "d"])
    }

    @Test("the stored total never exceeds maxBytes over many stores")
    func boundHolds() async throws {
        let (store, _, _) = try makeStore(options: Self.options)
        for i in 0..<20 {
            await put(store, "k\(i)", at: Double(i))
        }
        let total = try #require(try await store.pool?.read { db in try Int.fetchOne(db, sql: CacheSchema.totalBytes) })
        let counted = try #require(try await store.pool?.read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM entries") })
        #expect(total == counted)
        #expect(total <= Self.options.maxBytes)
        #expect(store.counters.evictions == 17)
    }

    @Test("an entry larger than maxBytes is not stored and evicts nothing")
    func oversized() async throws {
        let (store, _, _) = try makeStore(options: Self.options)
        await put(store, "a", at: 0)
        await store.store(key("huge"), body: [UInt8](repeating: 0, count: Self.options.maxBytes), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        #expect(await present(store, ["a", "huge"]) == ["a"])
        #expect(store.counters.evictions == 0)
    }

    @Test("entries past expiry plus staleGrace are swept by the next store, their tags by the reclaimer")
    func sweep() async throws {
        let (store, _, _) = try makeStore(options: .init(staleGrace: 10))
        await store.store(key("old"), body: bytes("x"), maxAge: 5, tags: ["t"], token: store.beginComputation(), now: t0)
        await store.store(key("new"), body: bytes("y"), maxAge: 5, tags: [], token: store.beginComputation(), now: t0.addingTimeInterval(60))
        await store.reclaimDeadEntries()
        let rows = try #require(try await store.pool?.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry_tag_sets") ?? -1)
        })
        #expect(rows.0 == 1)
        #expect(rows.1 == 0)
        #expect(store.counters.evictions == 0)
    }
}
