import Foundation
import Testing
@testable import ResponseCache
import SocialGateway

@Suite("Invalidation by tag")
struct InvalidationTests {
    /// Entries named by their tags, in several scopes.
    static let fixtures: [(name: String, scope: CacheScope, tags: Set<String>)] = [
        ("profile1", .shared, ["Profile:1"]),
        ("profile2", .shared, ["Profile:2"]),
        ("followers1", .viewer("alice"), ["followers:1", "Profile:1"]),
        ("following1", .viewer("bob"), ["following:1", "Profile:3"]),
        ("search", .shared, ["search", "Profile:2", "Profile:3"]),
        ("untagged", .shared, []),
    ]

    func populated() async throws -> ResponseCacheStore {
        let (store, _, _) = try makeStore()
        for fixture in Self.fixtures {
            await store.store(
                key(fixture.name, scope: fixture.scope), body: bytes(fixture.name), maxAge: 60,
                tags: fixture.tags, token: store.beginComputation(), now: t0)
        }
        return store
    }

    func survivors(_ store: ResponseCacheStore) async -> Set<String> {
        var names: Set<String> = []
        for fixture in Self.fixtures where await store.lookup(key(fixture.name, scope: fixture.scope), now: t0) != nil {
            names.insert(fixture.name)
        }
        return names
    }

    @Test(
        "every invalidation by tag removes exactly the tagged entries",
        arguments: [
            Set(["Profile:1"]), ["Profile:2"], ["Profile:3"], ["followers:1"], ["following:1"], ["search"],
            ["Profile:1", "search"], ["nothing"], ["following:1", "followers:1", "Profile:2"],
        ] as [Set<String>])
    func exactRemoval(tags: Set<String>) async throws {
        let store = try await populated()
        await store.invalidate(tags: tags)
        let expected = Set(Self.fixtures.filter { $0.tags.isDisjoint(with: tags) }.map(\.name))
        #expect(await survivors(store) == expected)
    }

    @Test("read-your-writes: an invalidation is visible to the very next lookup, even for stale lookups")
    func readYourWrites() async throws {
        let store = try await populated()
        #expect(await store.lookup(key("profile1"), now: t0) != nil)
        await store.invalidate(tags: ["Profile:1"])
        #expect(await store.lookup(key("profile1"), now: t0) == nil)
        #expect(await store.lookup(key("profile1"), now: t0, allowStale: true) == nil)
    }

    @Test("an invalidation through another store on the same file is seen by this one")
    func otherConnection() async throws {
        let (store, recorder, path) = try makeStore()
        await store.store(key("p"), body: bytes("p"), maxAge: 60, tags: ["Profile:9"], token: store.beginComputation(), now: t0)
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        await other.invalidate(tags: ["Profile:9"])
        #expect(await store.lookup(key("p"), now: t0) == nil)
    }

    @Test("a response computed before an invalidation of its tag is not stored after it")
    func tokenBeforeInvalidation() async throws {
        let (store, _, _) = try makeStore()
        let token = store.beginComputation()
        await store.invalidate(tags: ["Profile:1"])
        await store.store(key(), body: bytes("old"), maxAge: 60, tags: ["Profile:1", "search"], token: token, now: t0)
        #expect(await store.lookup(key(), now: t0) == nil)
    }

    @Test("an invalidation of other tags does not block a store")
    func unrelatedInvalidation() async throws {
        let (store, _, _) = try makeStore()
        let token = store.beginComputation()
        await store.invalidate(tags: ["Profile:2"])
        await store.store(key(), body: bytes("ok"), maxAge: 60, tags: ["Profile:1"], token: token, now: t0)
        #expect(await store.lookup(key(), now: t0)?.body == bytes("ok"))
    }

    @Test("a response computed after the invalidation is stored")
    func tokenAfterInvalidation() async throws {
        let (store, _, _) = try makeStore()
        await store.invalidate(tags: ["Profile:1"])
        let token = store.beginComputation()
        await store.store(key(), body: bytes("new"), maxAge: 60, tags: ["Profile:1"], token: token, now: t0)
        #expect(await store.lookup(key(), now: t0)?.body == bytes("new"))
    }

    @Test("a concurrent invalidation and store leave no stale entry behind")
    func concurrentRace() async throws {
        let (store, _, _) = try makeStore()
        var storedBeforeInvalidation = 0
        for round in 0..<500 {
            let k = key("q\(round)")
            let tag = "Profile:\(round % 7)"
            let token = store.beginComputation()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await store.store(k, body: bytes("old"), maxAge: 60, tags: [tag], token: token, now: t0)
                }
                group.addTask {
                    await store.invalidate(tags: [tag])
                }
            }
            #expect(await store.lookup(k, now: t0) == nil, "round \(round)")
            // A control entry with a fresh token and the same tag must still be storable.
            await store.store(k, body: bytes("new"), maxAge: 60, tags: [tag], token: store.beginComputation(), now: t0)
            if await store.lookup(k, now: t0) != nil { storedBeforeInvalidation += 1 }
        }
        #expect(storedBeforeInvalidation == 500)
    }

    @Test("removeAll removes every entry and refuses computations begun before it; queries stay")
    func removeAll() async throws {
        let store = try await populated()
        let hash = DocumentHash.of("{ a }")
        #expect(await store.storePersistedQuery("{ a }", sha256Hash: hash))
        let token = store.beginComputation()
        await store.removeAll()
        #expect(await survivors(store).isEmpty)
        await store.store(key("late"), body: bytes("late"), maxAge: 60, tags: [], token: token, now: t0)
        #expect(await store.lookup(key("late"), now: t0) == nil)
        #expect(await store.persistedQuery(sha256Hash: hash) == "{ a }")
    }

    @Test("the invalidation ledger past its tag limit refuses every older token, never admits one wrongly")
    func ledgerBound() {
        var ledger = InvalidationLedger(limit: 3)
        let early = ledger.token()
        ledger.invalidate(["a", "b", "c"])
        let middle = ledger.token()
        ledger.invalidate(["d"])  // 4 tags > limit: the map is cleared, the floor raised
        let late = ledger.token()
        #expect(!ledger.admits(early, tags: ["z"]))
        #expect(!ledger.admits(middle, tags: ["z"]))
        #expect(ledger.admits(late, tags: ["a", "d", "z"]))
    }
}
