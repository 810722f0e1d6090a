import Foundation
import Testing
@testable import ResponseCache
import SocialGateway

@Suite("Lookup and store")
struct LookupAndStoreTests {
    @Test("a stored response is returned with its bytes, a body ETag, its times and maxAge")
    func roundTrip() async throws {
        let (store, _, _) = try makeStore()
        #expect(store.isEnabled)
        let k = key()
        let body = bytes("{\"data\":{\"me\":{\"id\":\"1\"}}}")
        await store.store(k, body: body, maxAge: 60, tags: ["Profile:1"], token: store.beginComputation(), now: t0)
        let hit = try #require(await store.lookup(k, now: t0.addingTimeInterval(10)))
        #expect(hit.body == body)
        #expect(hit.etag == "\"" + DocumentHash.of(String(decoding: body, as: UTF8.self)) + "\"")
        #expect(hit.storedAt == t0)
        #expect(hit.expiresAt == t0.addingTimeInterval(60))
        #expect(hit.maxAge == 60)
        #expect(hit.isStale == false)
        #expect(store.counters == CacheCounters(hits: 1))
    }

    @Test("an absent key is a miss")
    func miss() async throws {
        let (store, _, _) = try makeStore()
        #expect(await store.lookup(key(), now: t0) == nil)
        #expect(store.counters == CacheCounters(misses: 1))
    }

    @Test("two viewers asking the same query get their own entries")
    func viewersOwnEntries() async throws {
        let (store, _, _) = try makeStore()
        let alice = key("{ me { name } }", scope: .viewer("alice"))
        let bob = key("{ me { name } }", scope: .viewer("bob"))
        await store.store(alice, body: bytes("alice"), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        await store.store(bob, body: bytes("bob"), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(alice, now: t0)?.body == bytes("alice"))
        #expect(await store.lookup(bob, now: t0)?.body == bytes("bob"))
    }

    @Test("a private entry is never served to another viewer or to the shared scope")
    func privateNeverCrossesScopes() async throws {
        let (store, _, _) = try makeStore()
        let alice = key("{ me { email } }", scope: .viewer("alice"))
        await store.store(alice, body: bytes("secret"), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        for scope in [CacheScope.viewer("bob"), .viewer(""), .viewer("PUBLIC"), .shared] {
            #expect(await store.lookup(key("{ me { email } }", scope: scope), now: t0) == nil)
            #expect(await store.lookup(key("{ me { email } }", scope: scope), now: t0, allowStale: true) == nil)
        }
        #expect(await store.lookup(alice, now: t0)?.body == bytes("secret"))
    }

    @Test("storing the same key again replaces the body and the tags")
    func replace() async throws {
        let (store, _, _) = try makeStore()
        let k = key()
        await store.store(k, body: bytes("old"), maxAge: 60, tags: ["a"], token: store.beginComputation(), now: t0)
        await store.store(k, body: bytes("new"), maxAge: 60, tags: ["b"], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(k, now: t0)?.body == bytes("new"))
        await store.invalidate(tags: ["a"])
        #expect(await store.lookup(k, now: t0)?.body == bytes("new"))
        await store.invalidate(tags: ["b"])
        #expect(await store.lookup(k, now: t0) == nil)
    }

    @Test("an entry is fresh before expiresAt and a miss from expiresAt on")
    func expiry() async throws {
        let (store, _, _) = try makeStore()
        let k = key()
        await store.store(k, body: bytes("x"), maxAge: 30, tags: [], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(k, now: t0.addingTimeInterval(29.9)) != nil)
        #expect(await store.lookup(k, now: t0.addingTimeInterval(30)) == nil)
        #expect(store.counters == CacheCounters(hits: 1, misses: 1))
    }

    @Test("maxAge 0 is not stored")
    func zeroMaxAge() async throws {
        let (store, _, _) = try makeStore()
        await store.store(key(), body: bytes("x"), maxAge: 0, tags: [], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(key(), now: t0, allowStale: true) == nil)
    }

    @Test("stale-if-error: an expired entry within staleGrace is served stale only when allowed")
    func staleIfError() async throws {
        let (store, _, _) = try makeStore(options: .init(staleGrace: 100))
        let k = key()
        await store.store(k, body: bytes("x"), maxAge: 10, tags: [], token: store.beginComputation(), now: t0)
        let later = t0.addingTimeInterval(50)
        #expect(await store.lookup(k, now: later) == nil)
        let stale = try #require(await store.lookup(k, now: later, allowStale: true))
        #expect(stale.isStale)
        #expect(stale.body == bytes("x"))
        #expect(await store.lookup(k, now: t0.addingTimeInterval(110), allowStale: true) == nil)
        #expect(store.counters == CacheCounters(hits: 0, misses: 2, stale: 1))
    }

    @Test("allowStale still returns a fresh entry as fresh, counted as a hit")
    func allowStaleFresh() async throws {
        let (store, _, _) = try makeStore()
        await store.store(key(), body: bytes("x"), maxAge: 10, tags: [], token: store.beginComputation(), now: t0)
        let hit = try #require(await store.lookup(key(), now: t0, allowStale: true))
        #expect(hit.isStale == false)
        #expect(store.counters == CacheCounters(hits: 1))
    }

    @Test("entries survive reopening the file")
    func persistence() async throws {
        let (store, recorder, path) = try makeStore()
        await store.store(key(), body: bytes("kept"), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        let reopened = ResponseCacheStore.open(path: path, logger: recorder.logger)
        #expect(reopened.isEnabled)
        #expect(await reopened.lookup(key(), now: t0)?.body == bytes("kept"))
    }

    @Test("under concurrent stores and lookups, each viewer only ever reads their own body")
    func concurrentViewers() async throws {
        let (store, _, _) = try makeStore()
        let viewers = (0..<16).map { "viewer-\($0)" }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for viewer in viewers {
                group.addTask {
                    var wrong = 0
                    let k = key("{ me { name } }", scope: .viewer(viewer))
                    for _ in 0..<20 {
                        await store.store(k, body: bytes(viewer), maxAge: 60, tags: ["Profile:me"], token: store.beginComputation(), now: t0)
                        if let hit = await store.lookup(k, now: t0), hit.body != bytes(viewer) { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(store.counters.hits == 16 * 20)
    }

    @Test("lookups that read the file, from many more tasks than threads, among async reads and stores, each get their body")
    func fileLookupsFromManyTasks() async throws {
        // Nothing kept in memory: every hit reads the file.
        let (store, _, _) = try makeStore(options: .init(memoryBytes: 0, memoryEntries: 0))
        let keys = (0..<8).map { key("{ profile(id: \($0)) { id } }") }
        for (index, k) in keys.enumerated() {
            await store.store(k, body: bytes("body-\(index)"), maxAge: 600, tags: [], token: store.beginComputation(), now: t0)
        }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<64 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<20 {
                        let index = (task + round) % keys.count
                        if await store.lookup(keys[index], now: t0)?.body != bytes("body-\(index)") { wrong += 1 }
                        if round % 5 == 0 {
                            _ = await store.persistedQuery(sha256Hash: String(repeating: "a", count: 64))
                            await store.store(
                                key("{ other(id: \(task)) }"), body: bytes("other"), maxAge: 600, tags: [],
                                token: store.beginComputation(), now: t0)
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(store.counters.hits == 64 * 20)
    }

    @Test("a hit's access time reaches the file when touches are flushed, and never moves backwards")
    func touchFlush() async throws {
        let (store, _, _) = try makeStore()
        await store.store(key(), body: bytes("x"), maxAge: 600, tags: [], token: store.beginComputation(), now: t0)
        _ = await store.lookup(key(), now: t0.addingTimeInterval(50))
        _ = await store.lookup(key(), now: t0.addingTimeInterval(20))
        await store.flushTouches()
        let lastAccess = try await store.pool?.read { db in try Double.fetchOne(db, sql: "SELECT last_access FROM entries") }
        #expect(lastAccess == t0.addingTimeInterval(50).timeIntervalSince1970)
    }
}
