import Foundation
import GatewayTestSupport
import Logging
import PostgresStore
import SocialDomain
import SupabaseFake
import Testing

/// The benchmark of issue 40 on PostgreSQL: `suggested_profiles` through the store (one
/// transaction with the caller's role and claims, as every call), for the embedded benchmark's
/// shape: a viewer following 1,000 profiles that follow 1,000 each. Prints p50/p99; runs only with
/// `SOCIAL_GATEWAY_BENCH=suggestions` and a test server (scripts/bench-suggestions).
@Suite("Benchmark: suggested profiles on PostgreSQL over a million two-hop follows")
struct PostgresSuggestionsBenchmark {
    @Test("suggested_profiles(20) for a viewer following 1,000 profiles that follow 1,000 each: p50 and p99 of 50 calls",
          .enabled(if: ProcessInfo.processInfo.environment["SOCIAL_GATEWAY_BENCH"] == "suggestions" && postgresAvailable))
    func suggestions() async throws {
        let (middles, perMiddle, pool) = (1_000, 1_000, 20_000)
        let database = try await PostgresTestDatabase.create(profiles: [], follows: [], ownerDetails: [:])
        do {
            let uuid = { (n: String, mid: String) in "(lpad(to_hex(\(n)), 8, '0') || '-\(mid)-4000-8000-' || lpad(to_hex(\(n)), 12, '0'))::uuid" }
            let seedStart = ContinuousClock.now
            try await database.execute(
                "set session_replication_role = replica",
                "insert into auth.users (id, email) select \(uuid("i", "0000")), 'user' || i || '@example.test' from generate_series(0, \(middles + pool)) i",
                """
                insert into public.profiles (id, handle, is_public, created_at, updated_at)
                select \(uuid("i", "0000")), 'user' || i, not (i > \(middles) and i % 10 = 0),
                       timestamptz 'epoch' + (1700000000 + i) * interval '1 second', timestamptz 'epoch' + (1700000000 + i) * interval '1 second'
                from generate_series(0, \(middles + pool)) i
                """,
                """
                insert into public.follows (id, follower_id, followee_id, created_at, updated_at)
                select \(uuid("i", "1111")), \(uuid("0", "0000")), \(uuid("i", "0000")), now(), now() from generate_series(1, \(middles)) i
                """,
                """
                insert into public.follows (id, follower_id, followee_id, created_at, updated_at)
                select gen_random_uuid(), \(uuid("i", "0000")), \(uuid("\(middles + 1) + (i * 7919 + j * 13) % \(pool)", "0000")), now(), now()
                from generate_series(1, \(middles)) i, generate_series(0, \(perMiddle - 1)) j
                """,
                """
                update public.profiles p set
                  follower_count = (select count(*) from public.follows f where f.followee_id = p.id and f.deleted_at is null),
                  following_count = (select count(*) from public.follows f where f.follower_id = p.id and f.deleted_at is null)
                """,
                "vacuum analyze public.profiles",
                "vacuum analyze public.follows")
            print("postgres: seeded \(middles * perMiddle + middles) follows in \(ContinuousClock.now - seedStart)")
            let store = try await PostgresStore.connect(
                configuration: PostgresConfiguration(endpoint: try .init(url: database.storeURL)), logger: Logger(label: "bench"))
            do {
                let id = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000000"))
                let viewer = Viewer.user(id: id, token: SupabaseFake.token(for: id))
                let page = try await store.suggestedProfiles(limit: 20, viewer: viewer)
                #expect(page.profiles.count == 20)
                print("postgres: \(page.totalCount) suggestions; first \(page.profiles.prefix(3).map(\.handle))")
                var times: [Double] = []
                for call in 0..<55 {
                    let start = ContinuousClock.now
                    _ = try await store.suggestedProfiles(limit: 20, viewer: viewer)
                    let elapsed = ContinuousClock.now - start
                    if call >= 5 { times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15) }
                }
                times.sort()
                print(String(format: "postgres suggestedProfiles(first: 20): p50 %.1f ms, p99 %.1f ms, min %.1f ms (%d calls)",
                             times[times.count / 2 - 1], times[times.count - 1], times[0], times.count))
            } catch {
                await store.shutdown()
                throw error
            }
            await store.shutdown()
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }
}
