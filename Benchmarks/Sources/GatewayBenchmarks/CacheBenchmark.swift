import EmbeddedStore
import Foundation
import GraphQLEngine
import ResponseCache
import SocialDomain
import SocialFixtures
import SocialGateway
import SupabaseFake
import SupabaseStore

/// The response cache's worth (issue #7): the same query through the gateway service with the
/// cache on (every request after the first is a hit) and off (every request executes), on the
/// embedded store and on the Supabase fake with 20 ms of latency per HTTP request.
///
/// In-process, through `GatewayService.execute`, so HTTP does not blur the comparison (the
/// load script measures the server). Latency percentiles come from one client issuing requests
/// one after the other; requests/s from 16 clients at once. Requests are alice's: follower lists
/// need a signed-in viewer (seed 001), and a token the Supabase fake accepts.
enum CacheBenchmark {
    static let viewer = Viewer.user(id: DemoData.aliceId, token: SupabaseFake.token(for: DemoData.aliceId))

    struct Scenario {
        let name: String
        let query: String
        let variables: JSONObject
    }

    struct Figures {
        var p50: Double
        var p99: Double
        var requestsPerSecond: Double
    }

    static func run(repositoryDirectory: URL) async throws {
        let card = try String(
            contentsOf: repositoryDirectory.appendingPathComponent("examples/profile-card.graphql"), encoding: .utf8)
        let scenarios = [
            Scenario(name: "profile card", query: card, variables: ["handle": "alice_wonder"]),
            Scenario(name: "follower graph", query: followerGraph, variables: ["h": "user2"]),
        ]
        print("\n## Response cache: hits against execution (gateway service in-process, release build)")
        print("Latency: one client, sequential. Requests/s: 16 concurrent clients.\n")
        print("| store | query | cache | p50 | p99 | req/s | hit cost / uncached (p50) |")
        print("|---|---|---|---:|---:|---:|---:|")

        let embedded = try await EmbeddedStore.temporary(seedDemoData: true)
        _ = try await embedded.seed(profiles: 1_000, followsPerProfile: 50)
        let embeddedStores = GatewayStores(profiles: embedded, follows: embedded, posts: embedded, stories: embedded, media: embedded)
        try await compare(store: "embedded", stores: embeddedStores, scenarios: scenarios, missCount: 1_000)

        let fake = try await SupabaseFake.start(latency: .milliseconds(20))
        try await fake.seedDemoData()
        try await fake.seed(profiles: 1_000, followsPerProfile: 50)
        let supabase = SupabaseStore(configuration: try fake.configuration())
        let supabaseStores = GatewayStores(profiles: supabase, follows: supabase, posts: supabase, stories: supabase, media: supabase)
        try await compare(store: "Supabase fake, 20 ms", stores: supabaseStores, scenarios: scenarios, missCount: 200)
        try await supabase.shutdown()
        await fake.stop()
    }

    static func compare(store: String, stores: GatewayStores, scenarios: [Scenario], missCount: Int) async throws {
        for scenario in scenarios {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-bench-\(UUID().uuidString)")
            // One viewer asks thousands of times: the per-viewer rate limit would answer most of
            // them (429), which is not what this measures.
            var uncachedOptions = GatewayOptions()
            uncachedOptions.rateLimiter = nil
            var cachedOptions = uncachedOptions
            cachedOptions.cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
            let cached = try GatewayService(stores: stores, options: cachedOptions)
            let uncached = try GatewayService(stores: stores, options: uncachedOptions)
            let request = GatewayRequest(query: scenario.query, variables: scenario.variables, viewer: viewer)

            // Both answer the same, without errors; then the cache holds the answer.
            let reference = await uncached.execute(request)
            guard !reference.hasErrors else {
                fatalError("\(scenario.name) on \(store) failed: \(String(decoding: reference.body, as: UTF8.self))")
            }
            _ = await cached.execute(request)
            for _ in 0..<500 where cachedOptions.cache.counters.hits == 0 {
                try await Task.sleep(for: .milliseconds(5))
                _ = await cached.execute(request)
            }
            guard cachedOptions.cache.counters.hits > 0, await cached.execute(request).body == reference.body else {
                fatalError("\(scenario.name) on \(store): the cache never answered, or answered differently")
            }

            let miss = try await measure(uncached, request, count: missCount)
            let hit = try await measure(cached, request, count: 20_000)
            let ratio = hit.p50 / miss.p50
            print("| \(store) | \(scenario.name) | off | \(ms(miss.p50)) | \(ms(miss.p99)) | \(grouped(miss.requestsPerSecond)) | |")
            print("| \(store) | \(scenario.name) | on (hit) | \(ms(hit.p50)) | \(ms(hit.p99)) | \(grouped(hit.requestsPerSecond)) | \(grouped(ratio, decimals: 3)) (\(grouped(1 / ratio, decimals: 1))x faster) |")
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Sequential latency percentiles over `count` requests, then requests/s with 16 clients.
    static func measure(_ service: GatewayService, _ request: GatewayRequest, count: Int) async throws -> Figures {
        for _ in 0..<min(count / 10, 200) { _ = await service.execute(request) }
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = await service.execute(request)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        samples.sort()
        let clients = 16
        let perClient = max(1, count / clients)
        let start = DispatchTime.now().uptimeNanoseconds
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    for _ in 0..<perClient { _ = await service.execute(request) }
                }
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Figures(
            p50: samples[samples.count / 2], p99: samples[min(samples.count - 1, samples.count * 99 / 100)],
            requestsPerSecond: Double(clients * perClient) / elapsed)
    }

    static func ms(_ seconds: Double) -> String {
        seconds < 0.001 ? "\(grouped(seconds * 1e6)) µs" : "\(grouped(seconds * 1e3, decimals: 2)) ms"
    }

    /// The bench-shaped graph of `scripts/load-test`: a profile, 50 followers, 10 follows each.
    static let followerGraph = """
        query FollowerGraph($h: String!) { profile(handle: $h) { id handle displayName avatarURL isPublic followerCount viewerIsFollowing
          followers(first: 50) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            edges { cursor node { id handle displayName avatarURL isPublic followerCount viewerIsFollowing
              following(first: 10) { totalCount edges { cursor node { id handle displayName avatarURL isPublic followerCount viewerIsFollowing } } } } } } } }
        """
}
