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
