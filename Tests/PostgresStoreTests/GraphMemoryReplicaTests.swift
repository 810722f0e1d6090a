import Foundation
import GatewayTestSupport
import GraphQLEngine
import Logging
import MediaFiles
import PostgresStore
import SocialDomain
import SocialFixtures
import SocialGateway
import SupabaseFake
import Testing

/// A replica with the graph in memory, following the database's change feed as production does
/// (its own ``ChangeStream``): what it keeps must follow every write, wherever it was made.
struct MemoryReplica {
    let service: GatewayService
    let stream: ChangeStream
    let follower: Task<Void, Never>

    init(store: PostgresStore, logger: Logger = Logger(label: "memory-replica")) throws {
        var feed = PostgresChangeFeed(configuration: store.configuration, logger: logger)
        feed.keepAliveInterval = .milliseconds(200)
        let stream = ChangeStream(feed: feed)
        var options = GatewayOptions()
        options.changes = stream
        options.graphMemory = GraphMemory.Limits()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("memory-replica-\(UUID().uuidString)")
        service = try GatewayService(
            stores: GatewayStores(
                profiles: store, follows: store, posts: store, stories: store,
                media: MediaDirectory(root: directory, publicBaseURL: "http://gateway.test"), snapshots: store.snapshots),
            options: options)
        self.stream = stream
        follower = Task { try? await stream.run() }
    }

    func query(_ text: String, viewer: Viewer) async throws -> JSONValue {
        try JSONParser.parse(await service.execute(GatewayRequest(query: text, viewer: viewer)).body)
    }

    func stop() { follower.cancel() }
}

@Suite("Graph memory on replicas of one PostgreSQL: every write reaches what each keeps",
       .enabled(if: postgresAvailable, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"), .serialized)
struct GraphMemoryReplicaTests {
    let card = #"{ profile(handle: "bob_builder") { bio isPublic followerCount viewerCanSeeDetails followers(first: 5) { nodes { handle } } } }"#

    @Test("a toggle through replica A, and UPDATEs in SQL, reach what replica B keeps in memory; nothing before the feed listens")
    func writesFromAnywhere() async throws {
        try await withDemoDatabase { database, store in
            let a = try MemoryReplica(store: store), b = try MemoryReplica(store: store)
            defer { a.stop(); b.stop() }
            #expect(await eventually { a.service.memory?.isAnswering == true && b.service.memory?.isAnswering == true })
            let before = try await b.query(card, viewer: carol)
            let count = try #require(before["data"]?["profile"]?["followerCount"]?.intValue)
            #expect((b.service.memory?.statistics.profiles ?? 0) > 0, "B keeps bob")
            // Alice unfollows bob through A: B's next answers for carol drop alice from the list.
            let toggled = try await a.query(
                #"mutation { toggleFollow(profileId: "\#(DemoData.bobId.lowercased)") { following } }"#, viewer: alice)
            #expect(toggled["data"]?["toggleFollow"]?["following"] == false)
            #expect(await eventually {
                let now = try? await b.query(card, viewer: carol)
                return now?["data"]?["profile"]?["followerCount"]?.intValue == count - 1
                    && now?["data"]?["profile"]?["followers"]?["nodes"]?.arrayValue?.contains { $0["handle"] == "alice_wonder" } == false
            })
            // Neither replica wrote these: a bio, then bob turning private. A stranger (no follow
            // of bob) must then see bob's card only: no bio, no followers.
            try await database.execute("update public.profiles set bio = 'Written in psql' where handle = 'bob_builder'")
            #expect(await eventually { (try? await b.query(card, viewer: carol))?["data"]?["profile"]?["bio"]?.stringValue == "Written in psql" })
            let strangerId = UUID()
            let dave = Viewer.user(id: strangerId, token: SupabaseFake.token(for: strangerId))
            _ = try await b.query(card, viewer: dave)
            try await database.execute("update public.profiles set is_public = false where handle = 'bob_builder'")
            #expect(await eventually {
                let seen = try? await b.query(card, viewer: dave)
                return seen?["data"]?["profile"]?["viewerCanSeeDetails"] == false && seen?["data"]?["profile"]?["bio"] == .null
                    && seen?["data"]?["profile"]?["followers"]?["nodes"]?.arrayValue?.isEmpty == true
            })
        }
    }
}
