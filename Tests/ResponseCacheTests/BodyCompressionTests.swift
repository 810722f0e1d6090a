import Foundation
import GRDB
import Testing
@testable import ResponseCache
import SocialGateway

/// Stored bodies are deflated, and tags are 64-bit keys (cache file v4, issue #17).
@Suite("Stored bodies: deflated in the file, the same bytes back")
struct BodyCompressionTests {
    func graphLike(_ profiles: Int) -> [UInt8] { SampleBodies.graphLike(profiles) }

    @Test("round trip: a large body inflates to the same bytes; a small one is stored as it is")
    func roundTrip() throws {
        let body = graphLike(500)
        let (stored, encoding) = BodyCompression.encode(body)
        #expect(encoding == .deflate)
        #expect(stored.count * 3 < body.count)
        #expect(BodyCompression.decode(stored, encoding: encoding.rawValue, limit: 1 << 30) == body)
        let small = bytes(#"{"data":{"__typename":"Query"}}"#)
        #expect(BodyCompression.encode(small) == (small, .identity))
        // Random bytes do not shrink: kept as they are.
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255) }
        #expect(BodyCompression.encode(noise).encoding == .identity)
    }

    @Test("a damaged stream, an unknown encoding or an inflated size past the limit decode to nil")
    func damaged() throws {
        let body = graphLike(200)
        let (stored, encoding) = BodyCompression.encode(body)
        #expect(BodyCompression.decode(Array(stored.prefix(stored.count / 2)), encoding: encoding.rawValue, limit: 1 << 30) == nil)
        #expect(BodyCompression.decode(stored.map { $0 ^ 0x5A }, encoding: encoding.rawValue, limit: 1 << 30) == nil)
        #expect(BodyCompression.decode(stored, encoding: 7, limit: 1 << 30) == nil)
        #expect(BodyCompression.decode(stored, encoding: encoding.rawValue, limit: body.count - 1) == nil)
        #expect(BodyCompression.decode(stored, encoding: encoding.rawValue, limit: body.count) == body)
    }

    @Test("a body that deflates far more than usual inflates whole: the output grows past its first guess")
    func highlyCompressible() throws {
        // 4 MB of one repeated profile deflates about 300-fold; the first output guess is 6x.
        let body = Array(String(repeating: #"{"handle":"user1","displayName":"User 1"},"#, count: 100_000).utf8)
        let (stored, encoding) = BodyCompression.encode(body)
        #expect(encoding == .deflate)
        #expect(stored.count * 100 < body.count)
        let back = try #require(BodyCompression.decode(stored, encoding: encoding.rawValue, limit: 1 << 30))
        #expect(back == body)
        // Copied out at its size: a copy kept in memory holds no spare capacity.
        #expect(back.capacity - back.count <= back.count / 8)
        #expect(BodyCompression.decode(stored, encoding: encoding.rawValue, limit: body.count - 1) == nil)
    }

    @Test("a body deflated by zlib, as cache files written before libdeflate hold, reads back the same")
    func zlibWrittenStream() throws {
        // Python: zlib.compress(body, 1), body being 60 `{"handle":"user<i>","displayName":"User <i>"},`.
        let hex = "780175d14b4a43411844e1adc81d6790febb3b0f17e1cc055c4840218a181c4870efa90ca5ea4c0f454dbedbf2b67e9e2ee7e579f9b99ebfb7cb6639bd5fbf2eebefcbfaf1a8afaa4fdbe56f73fbbf6c79d97c597959beec79d97d39f272f872e6e5f4e52e2f77bedce7e5de9787bc3cf8f29897475f3640527725620a4e0da0d4fd17a85ab06a80a5eebfc0d58257033075ff05b216cc1aa0a9fb2fb0b5e056e0a66ebf056eeabe05b70a6e056eeafe0b6e15dc0adcd4fd17dc2ab815b8a9fb2fb855702b7053b7df0e6eeabe05b71edc3ab8a9fb2fb8f5e0d6c14ddd7fc1ad07b70e6eeafe0b6e3db8757053f75f70ebc16d809bbafd0e7053f72db88de036c04ddd7fc16d04b7016eeafe0b6e23b80d7053f75f701bc16d809bbafd4e7053f72db8cde036c14ddd7fc16d06b7096eeafe0b6e33b84d7053f75f709bc16d829bbaff82db7cb8dd0149794522"
        let stream = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        let body = (0..<60).map { #"{"handle":"user\#($0)","displayName":"User \#($0)"},"# }.joined()
        #expect(BodyCompression.decode(stream, encoding: BodyCompression.Encoding.deflate.rawValue, limit: 1 << 20) == Array(body.utf8))
    }

    @Test("through the file: another store on it reads the same bytes, and the bound counts the deflated size")
    func throughTheFile() async throws {
        let (store, recorder, path) = try makeStore()
        let body = graphLike(550)
        await store.store(key("graph"), body: body, maxAge: 60, tags: ["Profile:1", "followers:1"], token: store.beginComputation(), now: t0)
        // A second store has nothing in memory: its hit comes from the file.
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        let hit = try #require(await other.lookup(key("graph"), now: t0))
        #expect(hit.body == body)
        #expect(hit.etag == CachedResponse.etag(for: body))
        let accounted = try #require(try await store.pool?.read { db in try Int.fetchOne(db, sql: CacheSchema.totalBytes) })
        #expect(accounted < body.count / 3)
        // Invalidation by tag finds it through the tag's 64-bit key.
        await store.invalidate(tags: ["followers:1"])
        #expect(await other.lookup(key("graph"), now: t0) == nil)
    }

    @Test("a stored row that no longer inflates reads as a miss, not as garbage")
    func damagedRowIsAMiss() async throws {
        let (store, recorder, path) = try makeStore()
        await store.store(key("graph"), body: graphLike(300), maxAge: 60, tags: [], token: store.beginComputation(), now: t0)
        let saboteur = try DatabaseQueue(path: path.path)
        try await saboteur.write { db in try db.execute(sql: "UPDATE entries SET body = substr(body, 1, 100)") }
        let other = ResponseCacheStore.open(path: path, logger: recorder.logger)
        #expect(await other.lookup(key("graph"), now: t0) == nil)
    }

    @Test("tag keys: equal text, equal key; the tags of one graph do not collide")
    func tagKeys() {
        #expect(TagKey.of("Profile:a11ce000-0000-4000-8000-000000000001") == TagKey.of("Profile:a11ce000-0000-4000-8000-000000000001"))
        let tags = (0..<100_000).map { _ in "Profile:\(UUID().uuidString.lowercased())" } + ["search", "follow-lists"]
        #expect(Set(tags.map(TagKey.of)).count == tags.count)
    }
}
