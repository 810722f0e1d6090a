import CDeflate
import Foundation
import GRDB
import Testing
@testable import ResponseCache
import SocialGateway

/// A hit hands HTTP its stored zlib stream and the body's CRC-32 (cache file v6), so that gzip
/// and deflate answers are sent without compressing again (issue #41).
@Suite("Stored deflate data for compressed answers")
struct StoredDeflateTests {
    func graphLike(_ profiles: Int) -> [UInt8] { SampleBodies.graphLike(profiles) }

    /// libdeflate's gzip decoder, which checks the trailer's CRC-32 and ISIZE against what it inflated.
    func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var result = LIBDEFLATE_BAD_DATA
        let output = [UInt8](unsafeUninitializedCapacity: 1 << 22) { buffer, count in
            var produced = 0
            result = bytes.withUnsafeBytes {
                libdeflate_gzip_decompress(decompressor, $0.baseAddress, $0.count, buffer.baseAddress, buffer.count, &produced)
            }
            count = result == LIBDEFLATE_SUCCESS ? produced : 0
        }
        return result == LIBDEFLATE_SUCCESS ? output : nil
    }

    @Test("RFC 1952 §2.3: the stored stream re-framed as gzip decodes with a real gzip decoder (CRC-32 and ISIZE right)")
    func gzipReframing() async throws {
        let (store, recorder, path) = try makeStore()
        let body = graphLike(550)
        await store.store(key("graph"), body: body, maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        // From memory, and from the file through a store with nothing in memory.
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        for hit in [await store.lookup(key("graph"), now: t0), await other.lookup(key("graph"), now: t0)] {
            let deflated = try #require(hit?.deflated)
            #expect(deflated.inflatedCount == body.count)
            #expect(deflated.crc32 == BodyCompression.crc32(body))
            let gzip = try #require(deflated.gzip())
            #expect(gzip.prefix(3) == [0x1F, 0x8B, 8])
            // The frame is the zlib stream's deflate data with 18 bytes of gzip around it for 6 of zlib's.
            #expect(gzip.count == deflated.zlib.count + 12)
            #expect(gunzip(gzip) == body)
            // The decoder does check: a wrong CRC-32 or ISIZE is refused.
            var wrongCRC = deflated
            wrongCRC.crc32 ^= 1
            #expect(gunzip(try #require(wrongCRC.gzip())) == nil)
            var wrongSize = deflated
            wrongSize.inflatedCount += 1
            #expect(gunzip(try #require(wrongSize.gzip())) == nil)
        }
    }

    @Test("RFC 1950 §2.2: a stream with a preset dictionary or another method is not re-framed")
    func notPlainZlib() {
        #expect(DeflatedBody(zlib: [0x78, 0x20 | 0x1D, 0, 0, 0, 0, 0], crc32: 0, inflatedCount: 0).rawDeflateRange == nil)
        #expect(DeflatedBody(zlib: [0x79, 0x01, 0, 0, 0, 0, 0], crc32: 0, inflatedCount: 0).gzip() == nil)
        #expect(DeflatedBody(zlib: [0x78, 0x01], crc32: 0, inflatedCount: 0).gzip() == nil)
        #expect(DeflatedBody(zlib: [0x78, 0x01, 3, 0, 0, 0, 0, 1], crc32: 0, inflatedCount: 0).rawDeflateRange == 2..<4)
    }

    @Test("the CRC-32 is stored beside the entry (v6) and read back with it, not computed on a hit")
    func crcStored() async throws {
        let (store, recorder, path) = try makeStore()
        let body = graphLike(100)
        await store.store(key("g"), body: body, maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        let file = try DatabaseQueue(path: path.path)
        let column = try await file.read { db in try Int64.fetchOne(db, sql: "SELECT crc32 FROM entries") }
        #expect(column.map { UInt32(truncatingIfNeeded: $0) } == BodyCompression.crc32(body))
        // Changed behind the cache's back: a store reading the file hands over what the file says.
        try await file.write { db in try db.execute(sql: "UPDATE entries SET crc32 = 12345") }
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        #expect(await other.lookup(key("g"), now: t0)?.deflated?.crc32 == 12345)
        // A small body is kept as it is: nothing deflated to hand over, no CRC.
        await store.store(key("s"), body: bytes(#"{"data":{}}"#), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        #expect(await other.lookup(key("s"), now: t0)?.deflated == nil)
        #expect(try await file.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries WHERE encoding = 0 AND crc32 IS NULL") } == 1)
    }

    @Test("a cache file of v5 (entries without crc32) migrates keeping its entries, which read back with their CRC-32 computed")
    func oldFileStillReads() async throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("cache.sqlite")
        let body = graphLike(200)
        let (stored, encoding) = BodyCompression.encode(body)
        #expect(encoding == .deflate)
        do {
            let old = try DatabasePool(path: path.path)
            try CacheSchema.migrator.migrate(old, upTo: "v5")
            try await old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO entries (digest, body, encoding, etag, stored_at, expires_at, max_age, last_access, size)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        key("old").digest, Data(stored), encoding.rawValue, CachedResponse.etag(for: body), t0.timeIntervalSince1970,
                        t0.timeIntervalSince1970 + 60, 60, t0.timeIntervalSince1970, stored.count + 256,
                    ])
            }
            try old.close()
        }
        let store = ResponseCacheStore.open(path: path, logger: LogRecorder().logger)
        #expect(store.isEnabled)
        let hit = try #require(await store.lookup(key("old"), now: t0))
        #expect(hit.body == body)
        let deflated = try #require(hit.deflated)
        #expect(deflated.zlib == stored)
        #expect(deflated.crc32 == BodyCompression.crc32(body))
        #expect(gunzip(try #require(deflated.gzip())) == body)
    }

    @Test("memory keeps the deflated copy with the body and counts both against its byte bound")
    func memoryAccounting() {
        let body = [UInt8](repeating: 0x61, count: 600)
        let deflated = DeflatedBody(zlib: [UInt8](repeating: 0, count: 500), crc32: 0, inflatedCount: 600)
        let plain = CachedResponse(body: body, etag: "\"e\"", storedAt: t0, expiresAt: t0.addingTimeInterval(60), isStale: false, maxAge: 60)
        var both = plain
        both.deflated = deflated
        var hot = HotEntries(maxEntries: 10, maxBytes: 1000)
        hot.keep("a", both, generation: 1)
        #expect(hot.count == 0, "600 + 500 bytes exceed the 1000-byte bound")
        hot.keep("a", plain, generation: 1)
        #expect(hot.count == 1)
        #expect(hot.servable("a", generation: 1, at: t0.timeIntervalSince1970)?.deflated == nil)
        // Attached later (the background store's deflate): counted too, so the bound evicts it.
        hot.attach("a", deflated, etag: "\"e\"")
        #expect(hot.count == 0)
        var roomy = HotEntries(maxEntries: 10, maxBytes: 2000)
        roomy.keep("a", plain, generation: 1)
        roomy.attach("a", deflated, etag: "\"other\"")
        #expect(roomy.servable("a", generation: 1, at: t0.timeIntervalSince1970)?.deflated == nil, "another answer's copy is not attached")
        roomy.attach("a", deflated, etag: "\"e\"")
        #expect(roomy.servable("a", generation: 1, at: t0.timeIntervalSince1970)?.deflated == deflated)
    }

    @Test("an answer stored in the background is served from memory with its deflated copy once deflated")
    func backgroundStoreAttaches() async throws {
        let (store, _, _) = try makeStore()
        let body = graphLike(300)
        store.storeInBackground(key("bg"), body: body, maxAge: 60, tags: [], token: store.beginComputation(), now: Date())
        var deflated: DeflatedBody?
        for _ in 0..<500 where deflated == nil {
            deflated = store.memoryHit(key("bg"))?.deflated
            if deflated == nil { try await Task.sleep(for: .milliseconds(5)) }
        }
        let found = try #require(deflated)
        #expect(gunzip(try #require(found.gzip())) == body)
    }
}
