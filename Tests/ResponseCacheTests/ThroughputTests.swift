import Foundation
import Testing
@testable import ResponseCache

/// Throughput figures for the lead's report, printed, never asserted (machines differ).
/// Run with `RESPONSE_CACHE_BENCH=1 swift test --filter ResponseCacheTests.ThroughputTests`.
@Suite("Throughput", .enabled(if: ProcessInfo.processInfo.environment["RESPONSE_CACHE_BENCH"] != nil))
struct ThroughputTests {
    @Test("lookups and stores per second on a 2 KB body")
    func figures() async throws {
        let (store, _, _) = try makeStore()
        let body = [UInt8](repeating: 0x7b, count: 2048)
        let keys = (0..<1_000).map { key("{ profile(id: \($0)) { name } }", scope: .viewer("v\($0 % 10)")) }
        let clock = ContinuousClock()

        let storeTime = await clock.measure {
            for k in keys {
                await store.store(k, body: body, maxAge: 600, tags: ["Profile:\(k.digest.prefix(2))"], token: store.beginComputation())
            }
        }
        let sequential = 5_000
        let lookupTime = await clock.measure {
            for i in 0..<sequential { _ = await store.lookup(keys[i % keys.count]) }
        }
        let concurrent = 20_000
        let concurrentTime = await clock.measure {
            await withTaskGroup(of: Void.self) { group in
                for t in 0..<8 {
                    group.addTask {
                        for i in stride(from: t, to: concurrent, by: 8) { _ = await store.lookup(keys[i % keys.count]) }
                    }
                }
            }
        }
        let invalidateTime = await clock.measure {
            for i in 0..<200 { await store.invalidate(tags: ["Profile:x\(i)"]) }
        }
        func perSecond(_ n: Int, _ d: Duration) -> Int {
            Int(Double(n) / (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18))
        }
        print("""
            ResponseCache throughput (2 KB bodies, 1,000 entries):
              store: \(perSecond(keys.count, storeTime))/s sequential
              lookup (hit): \(perSecond(sequential, lookupTime))/s sequential, \(perSecond(concurrent, concurrentTime))/s with 8 concurrent tasks
              invalidate (one tag, no match): \(perSecond(200, invalidateTime))/s
              counters: \(store.counters)
            """)
        #expect(store.counters.hits == sequential + concurrent)
    }
}

/// The shape that stalled writes (issue #17): follower-graph answers, 45 KB with 551 tags each,
/// filling the cache to its bound; then what an invalidation waits for. Printed, never asserted.
/// Run with `RESPONSE_CACHE_BENCH=1 swift test -c release --filter GraphShapedThroughput`.
@Suite("GraphShapedThroughput", .enabled(if: ProcessInfo.processInfo.environment["RESPONSE_CACHE_BENCH"] != nil))
struct GraphShapedThroughputTests {
    @Test("graph-sized stores to the bound, and invalidations of a full cache")
    func figures() async throws {
        let options = ResponseCacheOptions(maxBytes: 16 << 20)
        // Profile ids as the gateway writes them: lower-case UUIDs.
        let profiles = (0..<1_000).map { _ in UUID().uuidString.lowercased() }
        let (store, _, _) = try makeStore(options: options)
        let body = [UInt8](repeating: 0x7b, count: 45_000)
        let clock = ContinuousClock()
        var storeTimes: [Duration] = []
        // Each graph: its own list tag and 550 profiles out of 1,000, as random graphs overlap.
        var generator = SystemRandomNumberGenerator()
        for i in 0..<400 {
            var tags: Set<String> = ["followers:\(i)"]
            while tags.count < 551 { tags.insert("Profile:\(profiles[Int.random(in: 0..<1_000, using: &generator)])") }
            let token = store.beginComputation()
            storeTimes.append(await clock.measure { await store.store(key("graph \(i)"), body: body, maxAge: 600, tags: tags, token: token) })
        }
        var invalidateTimes: [Duration] = []
        for i in 0..<50 {
            invalidateTimes.append(await clock.measure { await store.invalidate(tags: ["Profile:\(profiles[i])", "followers:\(i)"]) })
        }
        await store.reclaimDeadEntries()
        func ms(_ d: Duration) -> String { String(format: "%.2f ms", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1e3) }
        storeTimes.sort()
        invalidateTimes.sort()
        print("""
            ResponseCache, graph-shaped entries (45 KB, 551 tags), bound 16 MiB:
              store: p50 \(ms(storeTimes[storeTimes.count / 2])), p99 \(ms(storeTimes[storeTimes.count * 99 / 100])), \
            evictions \(store.counters.evictions)
              invalidate (two tags, ~55% of entries carry one): p50 \(ms(invalidateTimes[invalidateTimes.count / 2])), \
            max \(ms(invalidateTimes.last!))
            """)
    }
}
