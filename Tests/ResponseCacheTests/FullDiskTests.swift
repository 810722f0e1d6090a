import Foundation
import Testing
@testable import ResponseCache

/// The cache on a disk that fills up and empties again: a real, small tmpfs (mounting needs
/// root, so the test is skipped elsewhere).
@Suite("A full disk under the cache")
struct FullDiskTests {
    /// Whether this machine lets the test mount a tmpfs (root, and a sandbox that allows it):
    /// probed once with a real mount.
    static let canMount: Bool = {
        guard getuid() == 0, let folder = try? temporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=64k") == 0 else { return false }
        unmount(folder)
        return true
    }()

    /// Mounts a `size` tmpfs on a new folder for the length of `body`.
    ///
    /// mount(2) and umount2(2) directly, not the mount tool: a subprocess waited for from a
    /// test's task is one more way for the serial suite to stall.
    static func withTmpfs(size: String, _ body: (URL) async throws -> Void) async throws {
        let folder = try temporaryDirectory()
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=\(size)") == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
        }
        defer {
            unmount(folder)
            try? FileManager.default.removeItem(at: folder)
        }
        try await body(folder)
    }

    /// Unmounts `folder`; while the cache's last connections still close (busy), a few more
    /// tries, then a lazy unmount, so that no test run leaves a mount behind.
    static func unmount(_ folder: URL) {
        for _ in 0..<20 {
            if umount2(folder.path, 0) == 0 || errno != EBUSY { return }
            usleep(50_000)
        }
        _ = umount2(folder.path, Int32(MNT_DETACH))
    }

    /// Writes zeros into `url` until the file system refuses more.
    static func fill(_ url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let chunk = Data(count: 16 * 1024)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        let small = Data(count: 512)
        while (try? handle.write(contentsOf: small)) != nil {}
    }

    @Test(
        "full disk: stores fail with one warning and a counter, reads go on; when space returns the cache recovers by itself",
        .enabled(if: canMount))
    func fullDiskThenSpace() async throws {
        try await Self.withTmpfs(size: "2m") { folder in
            let recorder = LogRecorder()
            var options = ResponseCacheOptions()
            options.recoveryInterval = 0
            let cache = ResponseCacheStore.open(path: folder.appendingPathComponent("cache.sqlite"), options: options, logger: recorder.logger)
            #expect(cache.isEnabled)
            await cache.store(key("{ a }"), body: bytes("A"), maxAge: 3600, tags: ["Profile:1"], token: cache.beginComputation(), now: t0)
            #expect(await cache.lookup(key("{ a }"), now: t0)?.body == bytes("A"))

            let filler = folder.appendingPathComponent("filler")
            try Self.fill(filler)
            let big = [UInt8](repeating: 0x61, count: 64 * 1024)
            for i in 0..<5 {
                await cache.store(key("{ b\(i) }"), body: big, maxAge: 3600, tags: ["Profile:2"], token: cache.beginComputation(), now: t0)
            }
            #expect(cache.counters.writeFailures >= 5)
            #expect(recorder.warnings.filter { $0.contains("writes failing") }.count == 1, "one warning, not one per request")
            #expect(await cache.lookup(key("{ b0 }"), now: t0) == nil)
            // The invalidation's delete cannot be committed either (its WAL frames need room):
            // lookups turn off rather than serve the entry it should have removed.
            await cache.invalidate(tags: ["Profile:1"])
            #expect(!cache.counters.lookupsEnabled)
            #expect(await cache.lookup(key("{ a }"), now: t0) == nil)
            #expect(recorder.warnings.contains { $0.contains("lookups off until the cache file can be cleared") })

            try FileManager.default.removeItem(at: filler)
            // Lookups start the clear in the background when lookups are off; stores work again.
            var recovered = false
            for attempt in 0..<50 where !recovered {
                _ = await cache.lookup(key("{ a }"), now: t0)
                await cache.store(key("{ c }"), body: bytes("C"), maxAge: 3600, tags: ["Profile:3"], token: cache.beginComputation(), now: t0)
                recovered = await cache.lookup(key("{ c }"), now: t0)?.body == bytes("C")
                if !recovered { try await Task.sleep(for: .milliseconds(20 * attempt)) }
            }
            #expect(recovered, "the cache serves again once the disk has room")
            #expect(cache.counters.lookupsEnabled)
            #expect(recorder.entries.withLock { $0.contains { $0.message.contains("writes work again") } })
            #expect(recorder.entries.withLock { $0.contains { $0.message.contains("lookups enabled again") } })
        }
    }
}
