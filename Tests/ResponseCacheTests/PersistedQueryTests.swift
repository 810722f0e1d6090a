import Foundation
import Testing
@testable import ResponseCache
import SocialGateway

@Suite("Automatic persisted queries")
struct PersistedQueryTests {
    let query = "query Feed { feed(first: 10) { id } }"

    @Test("an unknown hash is a miss (PersistedQueryNotFound)")
    func miss() async throws {
        let (store, _, _) = try makeStore()
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(query)) == nil)
    }

    @Test("a registered query is found by its hash, in either case")
    func hit() async throws {
        let (store, _, _) = try makeStore()
        let hash = DocumentHash.of(query)
        #expect(hash == "\(hash)".lowercased())
        #expect(await store.storePersistedQuery(query, sha256Hash: hash))
        #expect(await store.persistedQuery(sha256Hash: hash) == query)
        #expect(await store.persistedQuery(sha256Hash: hash.uppercased()) == query)
    }

    @Test("the hash is SHA-256 of the query's UTF-8 bytes, as Apollo clients compute it")
    func knownVector() {
        // echo -n '{ __typename }' | sha256sum
        #expect(DocumentHash.of("{ __typename }") == "7f56e67dd21ab3f30d1ff8b7bed08893f0a0db86449836189b361dd1e56ddb4b")
    }

    @Test("a hash that does not match the query is refused and nothing is stored")
    func mismatch() async throws {
        let (store, _, _) = try makeStore()
        let wrong = DocumentHash.of("{ somethingElse }")
        #expect(!(await store.storePersistedQuery(query, sha256Hash: wrong)))
        #expect(await store.persistedQuery(sha256Hash: wrong) == nil)
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(query)) == nil)
    }

    @Test("a malformed hash is a miss")
    func malformed() async throws {
        let (store, _, _) = try makeStore()
        #expect(await store.persistedQuery(sha256Hash: "abc") == nil)
        #expect(await store.persistedQuery(sha256Hash: String(repeating: "g", count: 64)) == nil)
    }

    @Test("past maxPersistedQueries the least recently used query is dropped")
    func bound() async throws {
        let (store, _, _) = try makeStore(options: .init(maxPersistedQueries: 2))
        let queries = ["{ a }", "{ b }", "{ c }"]
        #expect(await store.storePersistedQuery(queries[0], sha256Hash: DocumentHash.of(queries[0]), now: t0))
        #expect(await store.storePersistedQuery(queries[1], sha256Hash: DocumentHash.of(queries[1]), now: t0.addingTimeInterval(1)))
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(queries[0]), now: t0.addingTimeInterval(2)) != nil)
        #expect(await store.storePersistedQuery(queries[2], sha256Hash: DocumentHash.of(queries[2]), now: t0.addingTimeInterval(3)))
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(queries[0])) == queries[0])
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(queries[1])) == nil)
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(queries[2])) == queries[2])
    }

    @Test("past maxPersistedQueryBytes the least recently used queries are dropped until the total fits")
    func byteBound() async throws {
        let (store, _, _) = try makeStore(options: .init(maxPersistedQueryBytes: 100))
        let queries = (0..<4).map { "{ field\($0) " + String(repeating: " ", count: 20) + "}" }  // 32 bytes each
        for (i, query) in queries.enumerated() {
            #expect(await store.storePersistedQuery(query, sha256Hash: DocumentHash.of(query), now: t0.addingTimeInterval(Double(i))))
        }
        // 4 x 32 = 128 > 100: the oldest goes, the three newest (96 bytes) stay.
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(queries[0])) == nil)
        for query in queries.dropFirst() { #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(query)) == query) }
    }

    @Test("a query larger than maxPersistedQueryBytes is not stored, and evicts nothing")
    func oversizedQuery() async throws {
        let (store, _, _) = try makeStore(options: .init(maxPersistedQueryBytes: 64))
        let small = "{ a }"
        #expect(await store.storePersistedQuery(small, sha256Hash: DocumentHash.of(small)))
        let large = "{ a " + String(repeating: " ", count: 100) + "}"
        #expect(await store.storePersistedQuery(large, sha256Hash: DocumentHash.of(large)))
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(large)) == nil)
        #expect(await store.persistedQuery(sha256Hash: DocumentHash.of(small)) == small)
    }
}
