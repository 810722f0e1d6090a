import Foundation
import SocialDomain
import SupabaseFake
@testable import SupabaseStore

/// A running ``SupabaseFake`` seeded with alice, bob (public) and carol (private), plus a
/// ``SupabaseStore`` pointed at it; ``run(_:)`` always shuts both down. The fake runs the
/// migrations' SQL on the test PostgreSQL server: the suites that use it run only when
/// `SOCIAL_GATEWAY_TEST_POSTGRES` names one (``available``).
struct StoreHarness {
    static let alice = UUID(uuidString: "a11ce000-0000-4000-8000-000000000001")!
    static let bob = UUID(uuidString: "b0b00000-0000-4000-8000-000000000002")!
    static let carol = UUID(uuidString: "ca201000-0000-4000-8000-000000000003")!
    static let created = Date(timeIntervalSince1970: 1_740_000_000.123456)

    let fake: SupabaseFake
    let store: SupabaseStore

    /// Whether the fake can start: a test PostgreSQL server is named (`scripts/test` names one).
    static let available = ProcessInfo.processInfo.environment["SOCIAL_GATEWAY_TEST_POSTGRES"].map { !$0.isEmpty } ?? false

    var asAlice: Viewer { .user(id: Self.alice, token: SupabaseFake.token(for: Self.alice)) }
    var asBob: Viewer { .user(id: Self.bob, token: SupabaseFake.token(for: Self.bob)) }
    var asCarol: Viewer { .user(id: Self.carol, token: SupabaseFake.token(for: Self.carol)) }
    /// A signed-in viewer with no profile and no follows: sees what any stranger sees. (Lists are
    /// for signed-in callers: `follow_pages_with_states` is not anon's to call, migration 002000.)
    var asStranger: Viewer { .user(id: Self.stranger, token: SupabaseFake.token(for: Self.stranger)) }
    static let stranger = UUID(uuidString: "57a46e20-0000-4000-8000-00000000000f")!

    /// The profile columns every read asks for.
    static let select = "select=id,handle,display_name,bio,photo_url,home_gym,climbing_since,favorite_style,"
        + "is_public,follower_count,following_count,created_at,updated_at,send_count,post_count"

    static func run(
        configure: (inout SupabaseConfiguration) -> Void = { _ in },
        _ body: (StoreHarness) async throws -> Void
    ) async throws {
        let fake = try await SupabaseFake.start()
        do {
            try await fake.add(profiles: [
                Profile(id: alice, handle: "alice_wonder", displayName: "Alice", createdAt: created, updatedAt: created),
                Profile(id: bob, handle: "Bob_Builder", displayName: "100% Bob", createdAt: created, updatedAt: created),
                Profile(id: carol, handle: "carol_creator", isPublic: false, createdAt: created, updatedAt: created),
            ], follows: [])
        } catch {
            await fake.stop()
            throw error
        }
        try await withStore(on: fake, configure: configure) { store in
            try await body(StoreHarness(fake: fake, store: store))
        }
    }

    /// Runs `body` with a store on the running `fake`, then shuts down both, whether
    /// `body` throws or not.
    static func withStore(
        on fake: SupabaseFake, configure: (inout SupabaseConfiguration) -> Void = { _ in },
        _ body: (SupabaseStore) async throws -> Void
    ) async throws {
        var config = try fake.configuration()
        configure(&config)
        let store = SupabaseStore(configuration: config)
        do {
            try await body(store)
        } catch {
            try? await store.shutdown()
            await fake.stop()
            throw error
        }
        try await store.shutdown()
        await fake.stop()
    }

    /// The domain error `body` throws, or nil.
    static func domainError(_ body: () async throws -> Void) async -> DomainError? {
        do {
            try await body()
            return nil
        } catch let error as DomainError {
            return error
        } catch {
            return DomainError(.badUserInput, "not a DomainError: \(error)")
        }
    }
}
