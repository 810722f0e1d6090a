import Foundation
import GatewayServer
import GatewayTestSupport
import GraphQLEngine
import Logging
import MediaFiles
import PostgresStore
import ResponseCache
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// One gateway replica as production runs it: its own cache file, following the database's
/// change feed.
struct Replica {
    let service: GatewayService
    let cache: ResponseCacheStore
    let coherence: CacheCoherence
    let follower: Task<Void, Never>

    init(store: PostgresStore, logger: Logger = Logger(label: "replica")) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replica-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        cache = ResponseCacheStore.open(path: directory.appendingPathComponent("cache.sqlite"))
        var options = GatewayOptions()
        options.cache = cache
        let media = MediaDirectory(root: directory, publicBaseURL: "http://gateway.test")
        service = try GatewayService(
            stores: GatewayStores(
                profiles: store, follows: store, posts: store, stories: store, media: media, relations: store), options: options)
        var feed = PostgresChangeFeed(configuration: store.configuration, logger: logger)
        feed.keepAliveInterval = .milliseconds(200)
        let coherence = CacheCoherence(cache: cache, feed: feed, logger: logger)
        self.coherence = coherence
        follower = Task { try? await coherence.run() }
    }

    func query(_ text: String, viewer: Viewer = .anonymous) async throws -> JSONValue {
        let response = await service.execute(GatewayRequest(query: text, viewer: viewer))
        return try JSONParser.parse(response.body)
    }

    func stop() { follower.cancel() }
}

@Suite("Replicas on one PostgreSQL: every write reaches every cache",
       .enabled(if: postgresAvailable, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"), .serialized)
struct ReplicaCoherenceTests {
    let card = #"{ profile(handle: "bob_builder") { bio followerCount } }"#

    @Test("a toggle through replica A and an UPDATE in SQL both reach replica B's cached answer")
    func writesFromAnywhere() async throws {
        try await withDemoDatabase { database, store in
            let a = try Replica(store: store), b = try Replica(store: store)
            defer { a.stop(); b.stop() }
            #expect(await eventually { a.coherence.state == .listening && b.coherence.state == .listening })
            let before = try await b.query(card)
            let count = try #require(before["data"]?["profile"]?["followerCount"]?.intValue)
            // Cached on B: the second read is a hit.
            #expect(await eventually { (try? await b.query(card)) != nil && b.cache.counters.hits >= 1 })
            let toggled = try await a.query(
                #"mutation { toggleFollow(profileId: "\#(DemoData.bobId.lowercased)") { following } }"#, viewer: alice)
            #expect(toggled["data"]?["toggleFollow"]?["following"] == false)
            #expect(await eventually { (try? await b.query(card))?["data"]?["profile"]?["followerCount"]?.intValue == count - 1 })
            // Neither replica wrote this one.
            try await database.execute("update public.profiles set bio = 'Written in psql' where handle = 'bob_builder'")
            for replica in [a, b] {
                #expect(await eventually { (try? await replica.query(card))?["data"]?["profile"]?["bio"]?.stringValue == "Written in psql" })
            }
        }
    }

    @Test("a lost feed turns the cache off until it is back and cleared; /readyz and the counts say so; garbage clears the cache")
    func lostAndUnreadable() async throws {
        try await withDemoDatabase { database, store in
            let b = try Replica(store: store)
            defer { b.stop() }
            #expect(await eventually { b.coherence.state == .listening })
            _ = try await b.query(card)
            #expect(await eventually { _ = try? await b.query(card); return b.cache.counters.hits >= 1 })
            try await database.execute(
                "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'social-gateway-listener' and datname = current_database()")
            #expect(await eventually { b.coherence.counts["lost"] ?? 0 >= 1 })
            // Back by itself, with the cache cleared: the next read is a miss that goes to the store.
            #expect(await eventually { b.coherence.state == .listening && !b.cache.isSuspended })
            #expect(b.coherence.counts["connected"] == 2)
            let misses = b.cache.counters.misses
            _ = try await b.query(card)
            #expect(b.cache.counters.misses == misses + 1)
            // A notification this gateway cannot read: everything goes.
            #expect(await eventually { _ = try? await b.query(card); return b.cache.counters.hits >= 2 })
            try await database.execute("select pg_notify('social_gateway_cache', '{not json')")
            #expect(await eventually { b.coherence.counts["unreadable"] == 1 && b.coherence.isIdle })
            let missesBefore = b.cache.counters.misses
            _ = try await b.query(card)
            #expect(b.cache.counters.misses == missesBefore + 1)
        }
    }

    @Test("the database's tags for a toggle cover the tags the gateway invalidates itself")
    func triggerTagsMatchGateway() async throws {
        try await withDemoDatabase { _, store in
            let recorder = RecordingFeed()
            let feed = PostgresChangeFeed(configuration: store.configuration, logger: Logger(label: "t"))
            let following = Task { await feed.follow { await recorder.record($0) } }
            defer { following.cancel() }
            #expect(await eventually { await recorder.events.contains(.connected) })
            _ = try await store.changeFollow(FollowChange(pair: FollowPair(follower: DemoData.aliceId, followee: DemoData.bobId), action: .toggle), viewer: alice)
            let expected: Set<String> = [
                "Profile:\(DemoData.aliceId.lowercased)", "Profile:\(DemoData.bobId.lowercased)",
                "followers:\(DemoData.bobId.lowercased)", "following:\(DemoData.aliceId.lowercased)",
            ]
            #expect(await eventually { await recorder.tags.isSuperset(of: expected) })
            #expect(!(await recorder.tags).contains("search"))
        }
    }

    @Test("a card shared by two viewers on replica B follows a toggle through replica A and an UPDATE in SQL (issue 41)")
    func sharedCards() async throws {
        try await withDemoDatabase { database, store in
            let a = try Replica(store: store), b = try Replica(store: store)
            defer { a.stop(); b.stop() }
            #expect(await eventually { a.coherence.state == .listening && b.coherence.state == .listening })
            let card = #"""
                { profile(handle: "bob_builder") { bio followerCount viewerIsFollowing
                  followers(first: 10) { totalCount edges { node { handle } } } } }
                """#
            let first = try await b.query(card, viewer: alice)
            #expect(first["data"]?["profile"]?["viewerIsFollowing"] == true)
            // carol has alice's relation to bob: her card is alice's answer, from B's cache.
            #expect(await eventually { (try? await b.query(card, viewer: carol)) == first && b.cache.counters.hits >= 1 })
            let toggled = try await a.query(
                #"mutation { toggleFollow(profileId: "\#(DemoData.bobId.lowercased)") { following } }"#, viewer: alice)
            #expect(toggled["data"]?["toggleFollow"]?["following"] == false)
            #expect(await eventually {
                let view = try? await b.query(card, viewer: carol)
                return view?["data"]?["profile"]?["followerCount"] == 1
                    && view?["data"]?["profile"]?["followers"]?["edges"] == [["node": ["handle": "carol_creator"]]]
            })
            let writer = try await b.query(card, viewer: alice)
            #expect(writer["data"]?["profile"]?["viewerIsFollowing"] == false)
            #expect(writer["data"]?["profile"]?["followerCount"] == 1)
            try await database.execute("update public.profiles set bio = 'Written in psql' where handle = 'bob_builder'")
            for viewer in [alice, carol] {
                #expect(await eventually {
                    (try? await b.query(card, viewer: viewer))?["data"]?["profile"]?["bio"]?.stringValue == "Written in psql"
                })
            }
        }
    }
}

actor RecordingFeed {
    var events: [ChangeFeedEvent] = []
    var tags: Set<String> {
        events.reduce(into: Set<String>()) { all, event in if case .changed(let tags) = event { all.formUnion(tags) } }
    }
    func record(_ event: ChangeFeedEvent) { events.append(event) }
}
