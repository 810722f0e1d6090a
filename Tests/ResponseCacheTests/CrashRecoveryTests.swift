import Foundation
import Testing
@testable import ResponseCache

/// A process killed between a write it committed to the store and that write's invalidation
/// (kill -9, a crash, power loss) must not leave answers older than the store behind it.
@Suite("Crash recovery: writes journaled in the shared generation file")
struct CrashRecoveryTests {
    /// A cache with one entry tagged `Profile:1`, opened by a "process" that `body` then drops.
    static func withFirstProcess(at path: URL, _ body: (ResponseCacheStore) async -> Void) async {
        let first = ResponseCacheStore.open(path: path)
        await first.store(key(), body: bytes("old"), maxAge: 3600, tags: ["Profile:1"], token: first.beginComputation(), now: t0)
        #expect(await first.lookup(key(), now: t0)?.body == bytes("old"))
        await body(first)
    }

    @Test("a process that stopped between a write and its invalidation: the next one to open the cache alone clears it")
    func unfinishedWriteClears() async throws {
        let path = try temporaryDirectory().appendingPathComponent("cache.sqlite")
        await Self.withFirstProcess(at: path) { first in
            first.beginWrite()   // the store commits; the process dies before invalidating
        }
        let recorder = LogRecorder()
        let second = ResponseCacheStore.open(path: path, logger: recorder.logger)
        #expect(await second.lookup(key(), now: t0) == nil)
        #expect(recorder.warnings.contains { $0.contains("response cache cleared") })
        #expect(second.generation?.pendingWrites == 0, "the journal starts again from zero")
    }

    @Test("writes that finished their invalidation leave the cache as it was across a restart")
    func finishedWritesKeep() async throws {
        let path = try temporaryDirectory().appendingPathComponent("cache.sqlite")
        await Self.withFirstProcess(at: path) { first in
            first.beginWrite()
            await first.invalidate(tags: ["Profile:2"])
            first.endWrite()
        }
        let recorder = LogRecorder()
        let second = ResponseCacheStore.open(path: path, logger: recorder.logger)
        #expect(await second.lookup(key(), now: t0)?.body == bytes("old"))
        #expect(recorder.warnings.isEmpty)
    }

    @Test("while another process is on the cache with a write in progress, a newcomer leaves it alone")
    func liveWriterIsTrusted() async throws {
        let path = try temporaryDirectory().appendingPathComponent("cache.sqlite")
        let first = ResponseCacheStore.open(path: path)
        await first.store(key(), body: bytes("old"), maxAge: 3600, tags: ["Profile:1"], token: first.beginComputation(), now: t0)
        first.beginWrite()
        let second = ResponseCacheStore.open(path: path)
        #expect(await second.lookup(key(), now: t0)?.body == bytes("old"), "the live writer will invalidate itself")
        await first.invalidate(tags: ["Profile:1"])
        first.endWrite()
        #expect(await second.lookup(key(), now: t0) == nil)
        #expect(second.generation?.pendingWrites == 0)
    }
}
