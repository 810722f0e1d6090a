import EmbeddedStore
import GatewayServer
import Hummingbird
import Logging

/// What load tests add to a server, kept apart from the product: a constant route that measures
/// the HTTP ceiling (`serve --bench-ceiling-route`) and generated profiles in the embedded store
/// (`serve --bench-seed-profiles N`). The load scripts in `scripts/` use both flags.
public struct LoadTestHooks: Sendable {
    /// Add `GET /__bench/constant`, a constant body: the most this HTTP stack serves here.
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
            }
        ]
    }

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
}
