import Foundation
import GRDB
import Testing
@testable import ResponseCache
import SocialGateway

@Suite("Degrading to no cache")
struct DegradeTests {
    /// Every operation on a disabled store answers "nothing cached" without throwing or trapping.
    func expectInert(_ store: ResponseCacheStore) async {
        #expect(!store.isEnabled)
        await store.store(key(), body: bytes("x"), maxAge: 60, tags: ["t"], token: store.beginComputation(), now: t0)
        #expect(await store.lookup(key(), now: t0) == nil)
        #expect(await store.lookup(key(), now: t0, allowStale: true) == nil)
        await store.invalidate(tags: ["t"])
        await store.removeAll()
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of("{ a }")) == nil)
        #expect(await store.storePersistedQuery("{ a }", sha256Hash: DocumentHash.of("{ a }")))
        #expect(!(await store.storePersistedQuery("{ a }", sha256Hash: DocumentHash.of("{ b }"))))
        #expect(store.counters.hits == 0)
    }

    @Test("a file that is not a database yields a disabled store and a warning")
    func corruptFile() async throws {
        let path = try temporaryDirectory().appendingPathComponent("cache.sqlite")
        try Data(repeating: 0x5a, count: 8192).write(to: path)
        let recorder = LogRecorder()
        let store = ResponseCacheStore.open(path: path, logger: recorder.logger)
        #expect(recorder.warnings.contains { $0.contains("response cache disabled") })
        await expectInert(store)
        #expect(try Data(contentsOf: path) == Data(repeating: 0x5a, count: 8192), "the file is left alone")
    }

    @Test("a path whose directory is a regular file yields a disabled store and a warning (also as root)")
    func unwritableDirectory() async throws {
        let file = try temporaryDirectory().appendingPathComponent("not-a-dir")
        try Data("x".utf8).write(to: file)
        let recorder = LogRecorder()
        let store = ResponseCacheStore.open(path: file.appendingPathComponent("cache.sqlite"), logger: recorder.logger)
        #expect(recorder.warnings.contains { $0.contains("response cache disabled") })
        await expectInert(store)
    }

    @Test("a read-only cache file yields a disabled store and a warning")
    func readOnly() async throws {
        let (first, _, path) = try makeStore()
        await first.store(key(), body: bytes("x"), maxAge: 60, tags: [], token: first.beginComputation(), now: t0)
        var configuration = Configuration()
        configuration.readonly = true
        let recorder = LogRecorder()
        let store = ResponseCacheStore.open(path: path, options: .init(), logger: recorder.logger, configuration: configuration)
        #expect(recorder.warnings.contains { $0.contains("response cache disabled") })
        await expectInert(store)
    }

    @Test("disabled() caches nothing")
    func disabled() async {
        await expectInert(ResponseCacheStore.disabled())
    }

    @Test("deleting the file while the store is open never fails a call")
    func deletedWhileOpen() async throws {
        let (store, _, path) = try makeStore()
        await store.store(key("a"), body: bytes("a"), maxAge: 60, tags: ["t"], token: store.beginComputation(), now: t0)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path.path + suffix)
        }
        // Whatever SQLite still sees through its open descriptors, calls complete and stay scoped.
        await store.store(key("b"), body: bytes("b"), maxAge: 60, tags: ["t"], token: store.beginComputation(), now: t0)
        _ = await store.lookup(key("a"), now: t0)
        _ = await store.lookup(key("b"), now: t0)
        await store.invalidate(tags: ["t"])
        #expect(await store.lookup(key("a"), now: t0) == nil)
        #expect(await store.lookup(key("b"), now: t0) == nil)
        #expect(await store.lookup(key("a", scope: .viewer("x")), now: t0) == nil)
        _ = await store.storePersistedQuery("{ a }", sha256Hash: DocumentHash.of("{ a }"))
        _ = await store.persistedQuery(sha256Hash: DocumentHash.of("{ a }"))
    }

    @Test("a failed invalidation turns lookups off rather than serve entries it should have removed")
    func failedInvalidation() async throws {
        let (store, recorder, path) = try makeStore()
        await store.store(key("a"), body: bytes("a"), maxAge: 60, tags: ["Profile:1"], token: store.beginComputation(), now: t0)
        await store.store(key("b"), body: bytes("b"), maxAge: 60, tags: ["Profile:2"], token: store.beginComputation(), now: t0)
        // Break the tag table behind the store's back, so the invalidation's delete fails.
        let saboteur = try DatabaseQueue(path: path.path)
        try await saboteur.write { db in try db.execute(sql: "ALTER TABLE entry_tag_sets RENAME TO broken_tags") }
        await store.invalidate(tags: ["Profile:1"])
        #expect(recorder.warnings.contains { $0.contains("invalidation failed") })
        #expect(await store.lookup(key("a"), now: t0) == nil)
        #expect(await store.lookup(key("b"), now: t0) == nil)
        #expect(store.isEnabled)
    }

    @Test("a cache file and directory without write permission yield a disabled store (skipped as root)",
          .enabled(if: getuid() != 0, "root ignores permissions; see the readonly-configuration test"))
    func permissions() async throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("cache.sqlite")
        _ = ResponseCacheStore.open(path: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path) }
        let recorder = LogRecorder()
        let store = ResponseCacheStore.open(path: path, logger: recorder.logger)
        #expect(recorder.warnings.contains { $0.contains("response cache disabled") })
        await expectInert(store)
    }
}
