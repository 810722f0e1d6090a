import EmbeddedStore
import Foundation
import SocialDomain
import SocialFixtures

/// A file-backed store in a temporary folder with a hand-driven clock and seeded ids.
struct StoreFixture {
    let store: EmbeddedStore
    let clock: ManualClock

    static let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    static func make(demo: Bool = true) async throws -> StoreFixture {
        let clock = ManualClock(t0)
        var options = EmbeddedStore.Options()
        options.clock = clock
        options.random = SeededRandom(seed: 7)
        options.countStatements = true
        let store = try await EmbeddedStore.temporary(seedDemoData: demo, options: options)
        return StoreFixture(store: store, clock: clock)
    }

    static func viewer(_ id: UUID) -> Viewer { .user(id: id, token: "token-\(id.lowercased)") }
    static let alice = viewer(DemoData.aliceId)
    static let bob = viewer(DemoData.bobId)
    static let carol = viewer(DemoData.carolId)
    /// Signed in, with no profile: a stranger to every profile (search and lists need sign-in).
    static let reader = viewer(UUID(uuidString: "5ead0000-0000-4000-8000-000000000001")!)

    /// Creates a profile; `advance` moves the clock one second first so creation order is clear.
    @discardableResult
    func create(_ handle: String, displayName: String? = nil, bio: String? = nil, isPublic: Bool = true) async throws -> UUID {
        clock.advance(by: 1)
        let id = UUID()
        try await store.createProfile(id: id, handle: handle, displayName: displayName, bio: bio, isPublic: isPublic)
        return id
    }

    func update(_ id: UUID, _ edit: (inout ProfileUpdateInput) -> Void) async throws -> Profile {
        var input = ProfileUpdateInput()
        edit(&input)
        return try await UpdateProfile(profiles: store, clock: clock).execute(input: input, viewer: Self.viewer(id))
    }
}

func domainError(_ body: () async throws -> Void) async -> DomainError? {
    do {
        try await body()
        return nil
    } catch let error as DomainError {
        return error
    } catch {
        return nil
    }
}
