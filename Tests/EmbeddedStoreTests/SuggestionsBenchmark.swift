import EmbeddedStore
import Foundation
import GRDB
import SocialDomain
import Testing

/// The benchmark of issue 40 on the embedded store: `suggestedProfiles(first: 20)` for a viewer who
/// follows 1,000 profiles that each follow 1,000 (1M two-hop rows). Not a timed test: it prints
/// p50/p99 and asserts only that suggestions come back. Runs only with
/// `SOCIAL_GATEWAY_BENCH=suggestions` (scripts/bench-suggestions), since seeding takes a while.
@Suite("Benchmark: suggested profiles over a million two-hop follows")
struct SuggestionsBenchmark {
    static let enabled = ProcessInfo.processInfo.environment["SOCIAL_GATEWAY_BENCH"] == "suggestions"

    /// The shape both stores' benchmarks seed (see docs/performance/2026-11-27-suggestions.md): profile 0 is the viewer, 1...1000
    /// the profiles it follows, 1001...21000 the pool they follow; middle `m` follows the 1,000 pool
    /// profiles `1001 + (m * 7919 + j * 13) % 20000` (j = 0..<1000), so each pool profile has
    /// about 50 paths from the viewer; every 10th pool profile is private.
    static let middles = 1_000, perMiddle = 1_000, pool = 20_000

    @Test("suggestedProfiles(first: 20) for a viewer following 1,000 profiles that follow 1,000 each: p50 and p99 of 50 calls",
          .enabled(if: enabled))
    func suggestions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-suggestions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await EmbeddedStore.open(dataDirectory: folder, seedDemoData: false)
        let seedStart = ContinuousClock.now
        let queue = try DatabaseQueue(path: folder.appendingPathComponent(EmbeddedStore.databaseFileName).path)
        try await queue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.middles + Self.pool))
                INSERT INTO profiles (id, handle, is_public, created_at, updated_at)
                SELECT printf('%08x-0000-4000-8000-%012x', i, i), 'user' || i,
                       CASE WHEN i > \(Self.middles) AND i % 10 = 0 THEN 0 ELSE 1 END, 1700000000000000 + i, 1700000000000000 + i
                FROM n;
                WITH RECURSIVE m(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM m WHERE i < \(Self.middles))
                INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at)
                SELECT printf('%08x-1111-4000-8000-%012x', i, i), printf('%08x-0000-4000-8000-%012x', 0, 0),
                       printf('%08x-0000-4000-8000-%012x', i, i), 1710000000000000 + i, 1710000000000000 + i
                FROM m;
                WITH RECURSIVE m(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM m WHERE i < \(Self.middles)),
                j(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM j WHERE j < \(Self.perMiddle - 1))
                INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at)
                SELECT printf('%08x-2222-4000-8000-%012x', i, j), printf('%08x-0000-4000-8000-%012x', i, i),
                       printf('%08x-0000-4000-8000-%012x', c, c), 1720000000000000 + i * 1000 + j, 1720000000000000 + i * 1000 + j
                FROM (SELECT i, j, \(Self.middles + 1) + (i * 7919 + j * 13) % \(Self.pool) AS c FROM m, j);
                ANALYZE;
                """)
        }
        try queue.close()
        print("embedded: seeded \(Self.middles * Self.perMiddle + Self.middles) follows in \(ContinuousClock.now - seedStart)")
        let viewer = Viewer.user(id: try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000000")), token: "bench")
        let page = try await store.suggestedProfiles(limit: 20, viewer: viewer)
        #expect(page.profiles.count == 20)
        print("embedded: \(page.totalCount) suggestions; first \(page.profiles.prefix(3).map(\.handle))")
        let figures = try await Self.measure { _ = try await store.suggestedProfiles(limit: 20, viewer: viewer) }
        print("embedded suggestedProfiles(first: 20): \(figures)")
    }

    /// Five warm-up calls, then `calls` timed one after the other: "p50 x ms, p99 y ms (n calls)".
    static func measure(calls: Int = 50, _ body: () async throws -> Void) async throws -> String {
        for _ in 0..<5 { try await body() }
        var times: [Double] = []
        for _ in 0..<calls {
            let start = ContinuousClock.now
            try await body()
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        times.sort()
        func at(_ q: Double) -> Double { times[min(times.count - 1, Int((Double(times.count) * q).rounded(.up)) - 1)] }
        return String(format: "p50 %.1f ms, p99 %.1f ms, min %.1f ms (%d calls)", at(0.5), at(0.99), times[0], calls)
    }
}
