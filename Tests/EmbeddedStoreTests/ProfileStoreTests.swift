import Foundation
import SocialDomain
import SocialFixtures
import Testing

@Suite("Embedded profiles: visibility, updates, search")
struct ProfileStoreTests {
    @Test("a private profile is whole to its owner, a card to other signed-in viewers, hidden from anonymous ones, in batches too (order kept, nil for missing)")
    func privateProfiles() async throws {
        let f = try await StoreFixture.make()
        let secret = try await f.create("secret_sam", bio: "hidden", isPublic: false)
        let batch = BatchGetProfiles(profiles: f.store)
        let asAlice = try await batch.execute(ids: [secret, DemoData.bobId, UUID(), DemoData.aliceId], viewer: StoreFixture.alice)
        #expect(asAlice.map { $0?.handle } == ["secret_sam", "bob_builder", nil, "alice_wonder"])
        #expect(asAlice.map { $0?.access } == [.card, .full, nil, .full])
        #expect(asAlice[0]?.bio == nil)
        let asAnonymous = try await batch.execute(ids: [secret, DemoData.bobId], viewer: .anonymous)
        #expect(asAnonymous.map { $0?.handle } == [nil, "bob_builder"])
        let own = try await batch.execute(ids: [secret], viewer: StoreFixture.viewer(secret))
        #expect(own.first??.bio == "hidden" && own.first??.access == .full)
        let asSam = try await batch.execute(handles: ["SECRET_SAM", "bob_builder"], viewer: StoreFixture.viewer(secret))
        #expect(asSam.map { $0?.handle } == ["secret_sam", "bob_builder"])
        #expect(try await BatchGetProfiles(profiles: f.store).load(handles: ["secret_sam"], viewer: .anonymous)["secret_sam"] == nil)
    }

    @Test("a handle taken in another case is HANDLE_TAKEN; the owner may change the case of their own")
    func handleTaken() async throws {
        let f = try await StoreFixture.make()
        let error = await domainError { _ = try await f.update(DemoData.aliceId) { $0.handle = .set("BOB_builder") } }
        #expect(error == DomainError(.handleTaken, "This handle is already taken", field: "handle"))
        let renamed = try await f.update(DemoData.aliceId) { $0.handle = .set("Alice_Wonder") }
        #expect(renamed.handle == "Alice_Wonder")
    }

    @Test("absent fields stay, null clears, text is trimmed, updatedAt moves to the clock's time")
    func partialUpdate() async throws {
        let f = try await StoreFixture.make()
        f.clock.advance(by: 3600)
        let first = try await f.update(DemoData.aliceId) {
            $0.homeGym = .set("  Boulderwelt  ")
            $0.climbingSince = .set(CalendarDay("2019-04-01")!)
            $0.favoriteStyle = .set("slab")
        }
        #expect(first.homeGym == "Boulderwelt")
        #expect(first.bio == "Adventure seeker 🌟")
        #expect(first.updatedAt == f.clock.now())
        let second = try await f.update(DemoData.aliceId) { $0.bio = .clear; $0.isPublic = .set(false) }
        #expect(second.bio == nil && !second.isPublic)
        #expect(second.homeGym == "Boulderwelt" && second.climbingSince?.description == "2019-04-01")
        let reread = try await f.store.profiles(ids: [DemoData.aliceId], viewer: StoreFixture.alice)[DemoData.aliceId]
        #expect(reread == second)
        #expect(second.createdAt < second.updatedAt)
    }

    @Test("the store itself refuses another user's update with FORBIDDEN (emulated RLS)")
    func storeOwnership() async throws {
        let f = try await StoreFixture.make()
        var changes = ProfileChanges(updatedAt: f.clock.now())
        changes.bio = .set("hacked")
        let error = await domainError { _ = try await f.store.updateProfile(id: DemoData.bobId, changes: changes, viewer: StoreFixture.alice) }
        #expect(error == DomainError(.forbidden, "You are not authorized to update this profile"))
    }

    @Test("search is a case-insensitive substring of handle or display name, public profiles only")
    func search() async throws {
        let f = try await StoreFixture.make()
        try await f.create("Zed_climber", displayName: "Zed")
        try await f.create("hidden_ali", isPublic: false)
        try await f.create("elodie_b", displayName: "Élodie Bonnet")
        let search = SearchProfiles(profiles: f.store)
        let page = try await search.execute(query: "  ALI ", first: nil, after: nil, viewer: StoreFixture.reader)
        #expect(page.edges.map(\.profile.handle) == ["alice_wonder"])
        let byName = try await search.execute(query: "élo", first: nil, after: nil, viewer: StoreFixture.reader)
        #expect(byName.edges.map(\.profile.handle) == ["elodie_b"])
        let mixedCase = try await search.execute(query: "ZED", first: nil, after: nil, viewer: StoreFixture.reader)
        #expect(mixedCase.edges.map(\.profile.handle) == ["Zed_climber"])
    }

    @Test("% and _ in the search query match literally")
    func searchEscaping() async throws {
        let f = try await StoreFixture.make(demo: false)
        try await f.create("abc_def")
        try await f.create("abcxdef")
        try await f.create("sale_one", displayName: "100% Crimp")
        try await f.create("sale_two", displayName: "1000 Crimps")
        let search = SearchProfiles(profiles: f.store)
        #expect(try await search.execute(query: "c_d", first: nil, after: nil, viewer: StoreFixture.reader)
            .edges.map(\.profile.handle) == ["abc_def"])
        #expect(try await search.execute(query: "0%", first: nil, after: nil, viewer: StoreFixture.reader)
            .edges.map(\.profile.handle) == ["sale_one"])
        #expect(try await search.execute(query: "%%", first: nil, after: nil, viewer: StoreFixture.reader).edges.isEmpty)
    }

    @Test("search pages by keyset: first 2, then after the end cursor, until hasNextPage is false")
    func searchPages() async throws {
        let f = try await StoreFixture.make(demo: false)
        for handle in ["climb_e", "climb_a", "Climb_d", "climb_b", "climb_c"] { try await f.create(handle) }
        let search = SearchProfiles(profiles: f.store)
        var seen: [String] = []
        var after: String?
        var pages = 0
        repeat {
            let page = try await search.execute(query: "climb", first: 2, after: after, viewer: StoreFixture.reader)
            seen += page.edges.map(\.profile.handle)
            #expect(page.hasPreviousPage == (after != nil))
            after = page.hasNextPage ? page.endCursor : nil
            pages += 1
        } while after != nil
        #expect(seen == ["climb_a", "climb_b", "climb_c", "Climb_d", "climb_e"])
        #expect(pages == 3)
    }
}
