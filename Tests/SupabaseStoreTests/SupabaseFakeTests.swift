import Foundation
import SocialDomain
import SocialFixtures
import SupabaseFake
@testable import SupabaseStore
import Testing

/// The fake's own promises, which the gateway's suites and the benchmarks rely on.
@Suite("The Supabase fake", .enabled(if: StoreHarness.available, "the fake runs on SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
struct SupabaseFakeTests {
    @Test("seedDemoData holds the embedded store's demo profiles, counters and follows exactly")
    func demoData() async throws {
        try await Self.withDemoFake { fake, store in
            let ids = DemoData.profiles.map(\.id)
            let profiles = try await store.profiles(ids: ids, viewer: .anonymous)
            #expect(ids.map { profiles[$0] } == DemoData.profiles)
            // lists are for signed-in callers (follow_pages_with_states is not anon's, migration 002000)
            let stranger = UUID()
            let pages = try await store.followPages(
                ids.map { FollowPageRequest(list: FollowList(.followers, of: $0), page: PageRequest(limit: 10)) },
                viewer: .user(id: stranger, token: SupabaseFake.token(for: stranger)))
            let follows = pages.flatMap { $0.edges.map(\.follow) }
            #expect(Set(follows) == Set(DemoData.follows))
        }
    }

    @Test("a token signed with another secret is refused as PostgREST does (401 PGRST301 -> UNAUTHENTICATED)")
    func foreignSignature() async throws {
        try await Self.withDemoFake { fake, store in
            let good = SupabaseFake.token(for: DemoData.aliceId)
            let forged = good.split(separator: ".").prefix(2).joined(separator: ".") + ".c2lnbmVkLWVsc2V3aGVyZQ"
            let error = await StoreHarness.domainError {
                _ = try await store.profiles(ids: [DemoData.aliceId], viewer: .user(id: DemoData.aliceId, token: forged))
            }
            #expect(error?.code == .unauthenticated)
            let ok = try await store.profiles(ids: [DemoData.aliceId], viewer: .user(id: DemoData.aliceId, token: good))
            #expect(ok[DemoData.aliceId]?.handle == "alice_wonder")
        }
    }

    @Test("latency delays every answer by at least the configured time; zero again once reset")
    func latency() async throws {
        try await Self.withDemoFake { fake, store in
            fake.latency = .milliseconds(150)
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await store.profiles(ids: [DemoData.bobId], viewer: .anonymous)
            #expect(clock.now - start >= .milliseconds(150))
            fake.latency = .zero
            #expect(fake.latency == .zero)
        }
    }

    /// A fake with the demo data and a store on it; both shut down after `body`.
    static func withDemoFake(_ body: (SupabaseFake, SupabaseStore) async throws -> Void) async throws {
        let fake = try await SupabaseFake.start()
        do {
            try await fake.seedDemoData()
        } catch {
            await fake.stop()
            throw error
        }
        try await StoreHarness.withStore(on: fake) { store in try await body(fake, store) }
    }
}
