import EmbeddedStore
import Foundation
import Logging
import MediaFiles
import PostgresStore
import SocialDomain
import SocialFixtures
import SocialGateway
import SupabaseFake
import SupabaseStore

/// A store of one ``StoreKind`` with data in it, its ports for a ``GatewayService``, and the
/// viewers that store accepts.
///
/// Viewers differ per store: the embedded store trusts the `Viewer` it is given, while the
/// Supabase fake checks the forwarded bearer token's signature and `sub`, so a Supabase viewer
/// carries a token signed with the fake's secret. Round trips are each store's own figure:
/// port calls for the embedded store (``EmbeddedStore/callCounts``), HTTP requests the fake
/// recorded for Supabase (``SupabaseFake/requestCounts``).
///
/// ```swift
/// try await TestStore.run(.supabase) { store in
///     let service = try GatewayService(stores: store.stores)
///     ... store.viewer(DemoData.aliceId) ... store.fake?.requestCounts ...
/// }
/// ```
public struct TestStore: Sendable {
    /// What to put in the store before the test.
    public enum Seed: Sendable {
        /// The demo users and their six follows (``DemoData``).
        case demo
        /// The load-test graph (``LoadTestGraph``) of these arguments.
        case loadTest(profiles: Int, followsPerProfile: Int)
        /// These rows, as every store loads them (``SocialFixture``).
        case fixture(SocialFixture)
    }

    public let kind: StoreKind
    /// The embedded store, for `.embedded`.
    public let embedded: EmbeddedStore?
    /// The fake project and the store talking to it, for `.supabase`.
    public let fake: SupabaseFake?
    public let supabase: SupabaseStore?
    /// The database and the store on it, for `.postgres`.
    public let database: PostgresTestDatabase?
    public let postgres: PostgresStore?
    /// Where the PostgreSQL kind keeps media files (no Supabase Storage in these tests).
    public var mediaDirectory: MediaDirectory? = nil
    /// The ports to build a gateway service on.
    public let stores: GatewayStores

    /// Opens a store of `kind` holding `seed`. Call ``shutdown()`` when done (or use ``run(_:seed:_:)``).
    /// - Throws: the store's errors when it cannot be opened.
    public static func start(_ kind: StoreKind, seed: Seed = .demo) async throws -> TestStore {
        switch kind {
        case .embedded:
            var options = EmbeddedStore.Options()
            options.accessTokens = FakeSignedTokens()
            let store = try await EmbeddedStore.temporary(seedDemoData: { if case .demo = seed { true } else { false } }(), options: options)
            switch seed {
            case .demo: break
            case .loadTest(let profiles, let follows): try await store.seed(profiles: profiles, followsPerProfile: follows)
            case .fixture(let fixture): try await store.insert(fixture)
            }
            return TestStore(
                kind: kind, embedded: store, fake: nil, supabase: nil, database: nil, postgres: nil,
                stores: GatewayStores(profiles: store, follows: store, posts: store, stories: store, media: store,
                                      accounts: store, socialGraph: store, relations: store, snapshots: store,
                                      callCounts: { store.callCounts }))
        case .supabase:
            let fake = try await SupabaseFake.start()
            do {
                switch seed {
                case .demo: try await fake.seedDemoData()
                case .loadTest(let profiles, let follows): try await fake.seed(profiles: profiles, followsPerProfile: follows)
                case .fixture(let fixture):
                    try await fake.add(profiles: fixture.profiles, follows: fixture.follows)
                    try await fake.add(posts: fixture.posts, likes: fixture.likes, comments: fixture.comments)
                    for (id, details) in fixture.ownerDetails { try await fake.setOwnerDetails(details, for: id) }
                }
            } catch {
                await fake.stop()
                throw error
            }
            let store = SupabaseStore(configuration: try fake.configuration())
            return TestStore(
                kind: kind, embedded: nil, fake: fake, supabase: store, database: nil, postgres: nil,
                stores: GatewayStores(profiles: store, follows: store, posts: store, stories: store, media: store,
                                      accounts: store, socialGraph: store))
        case .postgres:
            let database = try await seed.postgresDatabase()
            do {
                let store = try await PostgresStore.connect(
                    configuration: PostgresConfiguration(endpoint: try .init(url: database.storeURL)), logger: Logger(label: "postgres-store-tests"))
                let media = MediaDirectory(root: mediaRoot(of: database), publicBaseURL: "http://gateway.test")
                return TestStore(
                    kind: kind, embedded: nil, fake: nil, supabase: nil, database: database, postgres: store,
                    mediaDirectory: media,
                    stores: GatewayStores(profiles: store, follows: store, posts: store, stories: store, media: media,
                                          socialGraph: store, relations: store, snapshots: store.snapshots,
                                          callCounts: { store.callCounts }))
            } catch {
                await database.drop()
                throw error
            }
        }
    }

    /// Runs `body` with a fresh store of `kind`, then shuts it down (also when `body` throws).
    public static func run<T>(_ kind: StoreKind, seed: Seed = .demo, _ body: (TestStore) async throws -> T) async throws -> T {
        let store = try await start(kind, seed: seed)
        do {
            let value = try await body(store)
            await store.shutdown()
            return value
        } catch {
            await store.shutdown()
            throw error
        }
    }

    /// A signed-in viewer this store accepts: any token for the embedded store, a token signed
    /// with the fake's secret for Supabase.
    public func viewer(_ id: UUID) -> Viewer {
        switch kind {
        case .embedded: .user(id: id, token: "test-token")
        case .supabase, .postgres: .user(id: id, token: SupabaseFake.token(for: id))
        }
    }

    /// Forgets the round trips so far (the embedded store's counters, the fake's recorded requests).
    public func resetRoundTrips() {
        embedded?.resetCounters()
        fake?.clearRequests()
        postgres?.resetCounters()
    }

    /// Closes the Supabase store's HTTP client and stops the fake; closes the PostgreSQL store,
    /// drops its database and removes its file folders; nothing for the embedded store.
    public func shutdown() async {
        try? await supabase?.shutdown()
        await fake?.stop()
        await postgres?.shutdown()
        if let database {
            await database.drop()
            try? FileManager.default.removeItem(at: Self.mediaRoot(of: database))
        }
    }

    /// Where the PostgreSQL kind keeps media files, one folder per kind (the files PostgreSQL does
    /// not hold).
    private static func mediaRoot(of database: PostgresTestDatabase) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("media-\(database.name)", isDirectory: true)
    }

    /// Ends an author's stories now (as if 24 hours had passed), in whichever store this is.
    public func ageStories(of author: UUID) async throws {
        switch kind {
        case .embedded: try await embedded?.operatorAgeStories(of: author)
        case .supabase: try await fake?.expireStories(of: author)
        case .postgres:
            try await database?.execute(
                "set session_replication_role = replica",
                "update public.stories set created_at = created_at - interval '24 hours 1 second', expires_at = expires_at - interval '24 hours 1 second' where author_id = '\(author.lowercased)'")
        }
    }

    /// Moves the decisions on these (declined) follow requests back past
    /// ``FollowRequestRules/askAgainAfterDecline``, as if that long had passed, where the store
    /// lets a test set a time: the embedded store and PostgreSQL. The Supabase fake keeps its
    /// requests in its own Swift tables, which have no such door: there it does nothing and
    /// answers false.
    /// Whether ``ageDeclines(_:)`` can move this store's decisions back.
    public var canAgeDeclines: Bool { kind != .supabase }

    @discardableResult
    public func ageDeclines(_ pairs: [FollowPair]) async throws -> Bool {
        let seconds = FollowRequestRules.askAgainAfterDecline + 3_600
        switch kind {
        case .embedded: try await embedded?.operatorAgeFollowRequestDecisions(pairs, bySeconds: seconds)
        case .supabase: return false
        case .postgres:
            let updates = pairs.map { pair in
                "update public.follow_requests set decided_at = decided_at - interval '\(seconds) seconds' where requester_id = '\(pair.follower.lowercased)' and target_id = '\(pair.followee.lowercased)'"
            }
            try await database?.execute(statements: ["set session_replication_role = replica"] + updates)
        }
        return true
    }

    /// How many story files the store holds (its folder, the fake's `stories` bucket), whichever
    /// store this is: a refused story must leave none behind.
    public func storedStoryFileCount() -> Int { storedFileCount(.story) }

    /// How many files of `kind` the store holds (its folder, or the fake's bucket of the kind).
    public func storedFileCount(_ kind: MediaKind) -> Int {
        func files(in folder: URL) -> Int {
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
            return (walker?.allObjects as? [URL] ?? []).filter {
                (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            }.count
        }
        switch self.kind {
        case .embedded: return embedded.map { files(in: $0.mediaDirectory.folder(for: kind)) } ?? 0
        case .supabase: return fake?.objectKeys().filter { $0.hasPrefix("\(kind.bucket)/") }.count ?? 0
        case .postgres: return mediaDirectory.map { files(in: $0.folder(for: kind)) } ?? 0
        }
    }

    /// Port calls per operation since the last reset, for the stores that count them (embedded,
    /// PostgreSQL: one statement per call).
    public var callCounts: [String: Int]? { embedded?.callCounts ?? postgres?.callCounts }
}

extension TestStore.Seed {
    /// A PostgreSQL test database holding this seed.
    func postgresDatabase() async throws -> PostgresTestDatabase {
        switch self {
        case .demo:
            try await PostgresTestDatabase.create(profiles: DemoData.profiles, follows: DemoData.follows, ownerDetails: DemoData.ownerDetails,
                posts: DemoData.posts, likes: DemoData.likes, comments: DemoData.comments)
        case .loadTest(let profiles, let followsPerProfile):
            try await {
                let graph = LoadTestGraph(profiles: profiles, followsPerProfile: followsPerProfile)
                return try await PostgresTestDatabase.create(profiles: graph.profiles, follows: graph.follows, ownerDetails: [:])
            }()
        case .fixture(let fixture):
            try await PostgresTestDatabase.create(
                profiles: fixture.profiles, follows: fixture.follows, ownerDetails: fixture.ownerDetails, posts: fixture.posts,
                likes: fixture.likes, comments: fixture.comments)
        }
    }
}

/// Access tokens for the embedded store's accounts in tests: the fake project's HS256 tokens, with
/// the session, as the gateway's own signer makes them.
struct FakeSignedTokens: AccessTokenSigner {
    func accessToken(userId: UUID, sessionId: UUID, email: String) async throws -> (token: String, expiresAt: Date) {
        (SupabaseFake.token(for: userId, sessionId: sessionId), Date(timeIntervalSinceNow: 3600))
    }
}
