import EmbeddedStore
import Foundation
import SocialDomain
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
    }

    public let kind: StoreKind
    /// The embedded store, for `.embedded`.
    public let embedded: EmbeddedStore?
    /// The fake project and the store talking to it, for `.supabase`.
    public let fake: SupabaseFake?
    public let supabase: SupabaseStore?
    /// The ports to build a gateway service on.
    public let stores: GatewayStores

    /// Opens a store of `kind` holding `seed`. Call ``shutdown()`` when done (or use ``run(_:seed:_:)``).
    /// - Throws: the store's errors when it cannot be opened.
    public static func start(_ kind: StoreKind, seed: Seed = .demo) async throws -> TestStore {
        switch kind {
        case .embedded:
            let store = try await EmbeddedStore.temporary(seedDemoData: { if case .demo = seed { true } else { false } }())
            if case .loadTest(let profiles, let follows) = seed {
                try await store.seed(profiles: profiles, followsPerProfile: follows)
            }
            return TestStore(
                kind: kind, embedded: store, fake: nil, supabase: nil,
                stores: GatewayStores(profiles: store, follows: store, avatars: store, callCounts: { store.callCounts }))
        case .supabase:
            let fake = try await SupabaseFake.start()
            switch seed {
            case .demo: fake.seedDemoData()
            case .loadTest(let profiles, let follows): fake.seed(profiles: profiles, followsPerProfile: follows)
            }
            let store = SupabaseStore(configuration: try fake.configuration())
            return TestStore(
                kind: kind, embedded: nil, fake: fake, supabase: store,
                stores: GatewayStores(profiles: store, follows: store, avatars: store))
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
        case .supabase: .user(id: id, token: SupabaseFake.token(for: id))
        }
    }

    /// Forgets the round trips so far (the embedded store's counters, the fake's recorded requests).
    public func resetRoundTrips() {
        embedded?.resetCounters()
        fake?.clearRequests()
    }

    /// Closes the Supabase store's HTTP client and stops the fake; nothing for the embedded store.
    public func shutdown() async {
        try? await supabase?.shutdown()
        await fake?.stop()
    }
}
