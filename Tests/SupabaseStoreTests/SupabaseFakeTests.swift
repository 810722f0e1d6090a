import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SocialDomain
import SocialFixtures
import SupabaseFake
@testable import SupabaseStore
import Testing

/// The fake's own promises, which the gateway's suites and the benchmarks rely on: PostgREST's
/// wire, with the rules of `supabase/migrations` run by PostgreSQL.
@Suite("The Supabase fake",
      .enabled(if: StoreHarness.available, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
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

    @Test("the rules are the migrations': a private profile's follow of the viewer is not shown to her (follows_read), as on PostgreSQL")
    func rulesAreTheSQL() async throws {
        // issue 52: the fake's own activeFollows read follows unfiltered and said carol follows
        // alice; the real policy shows a follow only when the viewer sees both ends.
        try await StoreHarness.run { h in
            try await h.fake.addFollow(StoreHarness.carol, StoreHarness.alice, createdAtMicroseconds: 1_740_912_672_000_000)
            let pair = FollowPair(follower: StoreHarness.carol, followee: StoreHarness.alice)
            #expect(try await h.store.activeFollows(among: [pair], viewer: h.asAlice).isEmpty)
            #expect(try await h.store.activeFollows(among: [pair], viewer: h.asCarol) == [pair])
            // the counter counts it all the same (counters count every active row)
            #expect(try await h.store.profiles(ids: [StoreHarness.alice], viewer: h.asAlice)[StoreHarness.alice]?.followerCount == 1)
        }
    }

    @Test("the grants are the migrations': anon may not call the list functions (42501 as anon: 401), as on a real project")
    func grantsAreTheSQL() async throws {
        try await StoreHarness.run { h in
            let error = await StoreHarness.domainError {
                _ = try await h.store.followPages([FollowPageRequest(list: FollowList(.followers, of: StoreHarness.alice))], viewer: .anonymous)
            }
            #expect(error?.code == .unauthenticated)
            let answer = try #require(h.fake.requests.last)
            #expect(answer.endpoint == "POST /rest/v1/rpc/follow_pages_with_states")
        }
    }

    @Test("a sign-up's profile is the one handle_new_user makes in the database: the handle asked for, the e-mail's name shown")
    func signUpMakesTheProfileInSQL() async throws {
        try await StoreHarness.run { h in
            let result = try await h.store.signUp(email: "Erin.Climbs@example.com", password: "long-enough", handle: "erin_climbs", homeZIP: "80302")
            let viewer = Viewer.user(id: result.userId, token: try #require(result.session?.accessToken))
            let profile = try #require(try await h.store.profiles(ids: [result.userId], viewer: viewer)[result.userId])
            #expect(profile.handle == "erin_climbs")
            #expect(profile.displayName == "erin.climbs")
            #expect(try await h.store.ownerDetails(viewer: viewer).homeZIP == "80302")
        }
    }

    @Test("PostgREST's grammar and errors: an unknown function is 404 PGRST202, a filter it cannot read 400 PGRST100, a bad uuid 400 22P02")
    func wireErrors() async throws {
        try await StoreHarness.run { h in
            func answer(_ method: String, _ path: String, body: String? = nil) async throws -> (Int, [String: Any]) {
                var request = URLRequest(url: try #require(URL(string: h.fake.url + path)))
                request.httpMethod = method
                request.setValue(SupabaseFake.apiKey, forHTTPHeaderField: "apikey")
                if let body {
                    request.httpBody = Data(body.utf8)
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                }
                let (data, response) = try await URLSession.shared.data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
            }
            let unknown = try await answer("POST", "/rest/v1/rpc/no_such_function", body: "{}")
            #expect(unknown.0 == 404 && unknown.1["code"] as? String == "PGRST202")
            let wrongArguments = try await answer("POST", "/rest/v1/rpc/handle_available", body: #"{"name":"x"}"#)
            #expect(wrongArguments.0 == 404 && wrongArguments.1["code"] as? String == "PGRST202")
            let filter = try await answer("GET", "/rest/v1/profiles?select=id&handle=fts.alice")
            #expect(filter.0 == 400 && filter.1["code"] as? String == "PGRST100")
            let uuid = try await answer("GET", "/rest/v1/profiles?select=id&id=eq.not-a-uuid")
            #expect(uuid.0 == 400 && uuid.1["code"] as? String == "22P02")
            #expect(uuid.1.keys.sorted() == ["code", "details", "hint", "message"])
            let column = try await answer("GET", "/rest/v1/profiles?select=no_such_column")
            #expect(column.0 == 400 && column.1["code"] as? String == "42703")
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
