import Foundation
import ResponseCache
@testable import SocialGateway
import Synchronization
import Testing

/// Issue 38: 32 identical concurrent misses ran the query twice. A request whose cache lookup
/// missed while the first one computed could reach the single-flight table after that one had
/// landed and let go of its key, with its answer in memory but not yet in the file, and lead a
/// second computation. These tests drive `InFlightQueries` at that moment, with a real cache.
@Suite("Single flight: a miss that arrives just after the leader landed (issue 38)")
struct LandedFlightTests {
    final class Runs: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    let key = CacheKey(document: "{ a }", operationName: nil, variables: "{}", scope: .shared)
    let body = Array(#"{"data":{"a":1}}"#.utf8)

    func cache() -> ResponseCacheStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("landed-\(UUID().uuidString)")
        return ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
    }

    /// `compute` as the service's: counts a run, stores the answer in the background, answers.
    func compute(_ cache: ResponseCacheStore, _ runs: Runs) -> @Sendable (CacheToken) async -> GatewayResponse {
        let (key, body) = (key, body)
        return { token in
            runs.add()
            cache.storeInBackground(key, body: body, maxAge: 60, tags: ["Profile:1"], token: token)
            return GatewayResponse(outcome: .executed, body: body, hasErrors: false)
        }
    }

    func landed(_ cache: ResponseCacheStore) -> @Sendable () -> GatewayResponse? {
        let key = key
        return { cache.memoryHit(key).map { GatewayResponse(outcome: .executed, body: $0.body, hasErrors: false, etag: $0.etag) } }
    }

    @Test("the late miss takes the landed answer from memory: one run, the same body")
    func lateMissJoinsLandedAnswer() async {
        let cache = cache(), flights = InFlightQueries(), runs = Runs()
        _ = await flights.response(for: key.digest, cache: cache, landed: landed(cache), compute: compute(cache, runs))
        // The leader has let go of the key; its file write may still be queued.
        let late = await flights.response(for: key.digest, cache: cache, landed: landed(cache), compute: compute(cache, runs))
        #expect(runs.value == 1)
        #expect(late.body == body)
        #expect(late.etag != nil)
    }

    @Test("after an invalidation the landed answer is not served: the next miss computes again")
    func invalidatedAnswerRecomputed() async {
        let cache = cache(), flights = InFlightQueries(), runs = Runs()
        _ = await flights.response(for: key.digest, cache: cache, landed: landed(cache), compute: compute(cache, runs))
        await cache.invalidate(tags: ["Profile:1"])
        _ = await flights.response(for: key.digest, cache: cache, landed: landed(cache), compute: compute(cache, runs))
        #expect(runs.value == 2)
    }
}
