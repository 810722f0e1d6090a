import EmbeddedStore
import GatewayServer
import Hummingbird
import Logging
import PostgresStore
import SocialFixtures

/// What load tests add to a server, kept apart from the product: constant routes that measure
/// the HTTP ceiling (`serve --bench-ceiling-route`) and generated profiles in the embedded store
/// (`serve --bench-seed-profiles N`). The load scripts in `scripts/` use both flags.
public struct LoadTestHooks: Sendable {
    /// Add `GET /__bench/constant`, a constant body: the most this HTTP stack serves here; and
    /// `POST /__bench/card-shaped`, which reads the request's body and answers a constant of a
    /// profile card's size with a cached card's headers: the most this HTTP stack serves for a
    /// card's exchange, so that a load test tells the stack's share of a card from ours.
    public var ceilingRoute = false
    /// Generate this many extra profiles (`user1`...) into an embedded store that has none yet,
    /// each following ``seedFollowsPerProfile`` others (the bench dataset's shape).
    public var seedProfiles = 0
    public var seedFollowsPerProfile = 50
    /// Posts each seeded profile has (the feed scenario reads them).
    public var seedPostsPerProfile = 5

    public init() {}

    /// The routes these hooks add to the server.
    public var routes: [GatewayRoute] {
        guard ceilingRoute else { return [] }
        return [
            GatewayRoute(.get, "/__bench/constant") { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                         body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"data":{"ok":true}}"#)))
            },
            GatewayRoute(.post, "/__bench/card-shaped") { request, _ in
                _ = try await request.body.collect(upTo: Self.cardShapedRequestLimit)
                return Response(status: .ok, headers: Self.cardShapedHeaders, body: ResponseBody(byteBuffer: Self.cardShapedBody))
            },
        ]
    }

    /// The most `/__bench/card-shaped` reads: the gateway's default body limit.
    static let cardShapedRequestLimit = 1 << 20
    /// A cached profile card's headers (`examples/profile-card.graphql` as a signed-in viewer).
    static let cardShapedHeaders: HTTPFields = [
        .contentType: "application/graphql-response+json; charset=utf-8",
        .cacheControl: "private, max-age=30",
        .eTag: "\"" + String(repeating: "0", count: 64) + "\"",
    ]
    /// JSON of a card answer's size with ten followers (3,354-3,387 bytes for `user5`..`user999`
    /// of the load test's seeded profiles).
    static let cardShapedBody: ByteBuffer = {
        let opening = #"{"data":{"ok":true,"padding":""#, closing = #""}}"#
        return ByteBuffer(string: opening + String(repeating: "x", count: 3370 - opening.count - closing.count) + closing)
    }()

    /// Seeds the generated profiles on the first start; `user1` is private, so only an operator
    /// lookup finds it, and tells a restart from a first start.
    func seed(_ store: EmbeddedStore, logger: Logger) async throws {
        guard seedProfiles > 0, try await store.operatorProfileID(forHandle: "user1") == nil else { return }
        let summary = try await store.seed(
            profiles: seedProfiles, followsPerProfile: seedFollowsPerProfile, postsPerProfile: seedPostsPerProfile)
        logger.notice("seeded load-test profiles", metadata: [
            "profiles": "\(summary.profiles)", "follows": "\(summary.follows)", "posts": "\(summary.posts)",
        ])
    }

    /// Seeds a PostgreSQL database (the migrations applied, no profiles yet) with what a served
    /// embedded store holds for a load test: the demo users with their posts, likes and comments,
    /// and the generated graph of ``seedProfiles`` (the same ids, follows and posts as
    /// ``seed(_:logger:)`` writes), so that `scripts/load-test` compares the stores on the same
    /// rows. `adminURL` names a superuser (`social-gateway seed-postgres`).
    public func seedPostgres(adminURL: String, logger: Logger = Logger(label: "seed-postgres")) async throws -> (profiles: Int, follows: Int, posts: Int) {
        let endpoint = try PostgresConfiguration.Endpoint(url: adminURL, name: "--database-url")
        let graph = LoadTestGraph(
            profiles: seedProfiles, followsPerProfile: seedFollowsPerProfile, postsPerProfile: seedPostsPerProfile)
        let profiles = DemoData.profiles + graph.profiles, follows = DemoData.follows + graph.follows
        let posts = DemoData.posts + graph.posts
        try await PostgresSeed.withConnection(to: endpoint, logger: logger) { connection in
            try await PostgresSeed.insert(
                profiles: profiles, follows: follows, ownerDetails: DemoData.ownerDetails, on: connection, logger: logger)
            try await PostgresSeed.insert(
                posts: posts, likes: DemoData.likes, comments: DemoData.comments, on: connection, logger: logger)
            try await PostgresSeed.analyze(on: connection, logger: logger)
        }
        return (profiles.count, follows.count, posts.count)
    }
}
