import Foundation
import Testing
@testable import SocialDomain

@Suite("UpdateProfile (seed 001)")
struct UpdateProfileTests {
    let clock = ManualClock(Fixture.t0.addingTimeInterval(60))

    func update(_ input: ProfileUpdateInput, store: InMemorySocialStore, viewer: Viewer = Fixture.aliceViewer,
                id: UUID? = nil) async throws -> Profile {
        try await UpdateProfile(profiles: store, clock: clock).execute(profileId: id, input: input, viewer: viewer)
    }

    @Test("bio over 280 characters is rejected with BAD_USER_INPUT")
    func bioTooLong() async {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        input.bio = .set(String(repeating: "a", count: 281))
        let error = await domainError { _ = try await update(input, store: store) }
        #expect(error == DomainError(.badUserInput, "Bio is too long (281/280 characters)", field: "bio"))
        #expect(await store.calls.isEmpty)
    }

    @Test("bio of 280 characters plus surrounding whitespace is accepted and stored trimmed")
    func bioTrimmed() async throws {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        let bio = String(repeating: "é", count: 280)
        input.bio = .set("  \n\(bio)\t ")
        #expect(try await update(input, store: store).bio == bio)
    }

    @Test("lengths count characters as people see them, as the seeds' String.count does",
          arguments: [
            ("emoji with a skin tone", "\u{1F44D}\u{1F3FD}"),
            ("a family (ZWJ sequence, 25 bytes)", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"),
            ("a flag", "\u{1F1EF}\u{1F1F5}"),
            ("e with a combining acute", "e\u{301}"),
            ("a CJK character", "\u{6F22}"),
          ])
    func graphemeLengths(_ name: String, _ character: String) async throws {
        #expect(character.count == 1, "\(name)")
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        input.bio = .set(String(repeating: character, count: 280))
        input.displayName = .set(String(repeating: character, count: 50))
        input.homeGym = .set(String(repeating: character, count: 100))
        let saved = try await update(input, store: store)
        #expect(saved.bio?.count == 280, "\(name)")
        input.bio = .set(String(repeating: character, count: 281))
        let error = await domainError { _ = try await update(input, store: store) }
        #expect(error == DomainError(.badUserInput, "Bio is too long (281/280 characters)", field: "bio"), "\(name)")
    }

    @Test("a character stacked with combining marks counts its bytes: a bound the databases can check")
    func combiningMarkBytes() async {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        // One character: a base letter and 40 combining marks (81 bytes); 200 of them are 200 characters.
        let zalgo = "a" + String(repeating: "\u{0301}", count: 40)
        #expect(zalgo.count == 1)
        input.bio = .set(String(repeating: zalgo, count: 200))
        let error = await domainError { _ = try await update(input, store: store) }
        #expect(error == DomainError(
            .badUserInput,
            "Bio is too long (16200/8960 bytes): characters made of many combined marks count more", field: "bio"))
        #expect(await store.calls.isEmpty)
    }

    @Test("display name over 50 characters after trimming is rejected with BAD_USER_INPUT")
    func displayNameTooLong() async {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        input.displayName = .set(" " + String(repeating: "x", count: 51) + " ")
        let error = await domainError { _ = try await update(input, store: store) }
        #expect(error == DomainError(.badUserInput, "Display name exceeds 50 characters", field: "displayName"))
        input.displayName = .set("  " + String(repeating: "x", count: 50) + "  ")
        #expect(try! await update(input, store: store).displayName == String(repeating: "x", count: 50))
    }

    @Test("handle must match ^[a-zA-Z][a-zA-Z0-9_]{2,29}$")
    func handleFormat() async throws {
        let store = await Fixture.store()
        for bad in ["ab", "1abc", "_abc", "abc-def", "abc def", "ábc", String(repeating: "a", count: 31)] {
            var input = ProfileUpdateInput()
            input.handle = .set(bad)
            let error = await domainError { _ = try await update(input, store: store) }
            #expect(error == DomainError(.badUserInput, "Invalid handle: Must be 3-30 characters, start with a letter, and contain only letters, numbers, and underscores", field: "handle"), "\(bad)")
        }
        for good in ["abc", "A_1", String(repeating: "z", count: 30)] {
            var input = ProfileUpdateInput()
            input.handle = .set(good)
            #expect(try await update(input, store: store).handle == good)
        }
    }

    @Test("a handle taken by someone else in another case is HANDLE_TAKEN; your own in another case is fine")
    func handleTaken() async throws {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        input.handle = .set("Bob_Builder")
        let error = await domainError { _ = try await update(input, store: store) }
        #expect(error == DomainError(.handleTaken, "This handle is already taken", field: "handle"))
        input.handle = .set("Alice_Wonder")
        #expect(try await update(input, store: store).handle == "Alice_Wonder")
    }

    @Test("an absent field stays, an explicit null clears, and updatedAt moves")
    func triState() async throws {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        input.bio = .set("Crimps")
        input.homeGym = .set(" Boulderwelt ")
        input.climbingSince = .set(CalendarDay("2019-04-01")!)
        _ = try await update(input, store: store)
        var second = ProfileUpdateInput()
        second.homeGym = .clear
        let profile = try await update(second, store: store)
        #expect(profile.bio == "Crimps")
        #expect(profile.homeGym == nil)
        #expect(profile.climbingSince?.description == "2019-04-01")
        #expect(profile.displayName == "Alice Wonderland")
        #expect(profile.updatedAt == clock.now())
        #expect(profile.updatedAt > Fixture.t0)
    }

    @Test("only the owner may update: another profile is FORBIDDEN, anonymous is UNAUTHENTICATED")
    func ownership() async {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        input.bio = .set("hi")
        let forbidden = await domainError { _ = try await update(input, store: store, id: Fixture.bob) }
        #expect(forbidden == DomainError(.forbidden, "You are not authorized to update this profile"))
        let anonymous = await domainError { _ = try await update(input, store: store, viewer: .anonymous) }
        #expect(anonymous == DomainError(.unauthenticated, "You must be logged in to update your profile"))
        #expect(await store.calls.isEmpty)
    }

    @Test("a store failure becomes BACKEND_UNAVAILABLE with a generic message")
    func backendFailure() async {
        let store = await Fixture.store()
        await store.setFailUpdates(true)
        var input = ProfileUpdateInput()
        input.bio = .set("hi")
        let error = await domainError { _ = try await update(input, store: store) }
        #expect(error == DomainError(.backendUnavailable, "The service is temporarily unavailable. Please try again later."))
    }

    @Test("handle and isPublic cannot be null; avatarURL can only be cleared")
    func nonNullable() async {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        input.handle = .clear
        #expect(await domainError { _ = try await update(input, store: store) }
            == DomainError(.badUserInput, "Handle cannot be empty", field: "handle"))
        input = ProfileUpdateInput()
        input.isPublic = .clear
        #expect(await domainError { _ = try await update(input, store: store) }
            == DomainError(.badUserInput, "isPublic cannot be null", field: "isPublic"))
        input = ProfileUpdateInput()
        input.avatarURL = .set("http://evil.example/x.jpg")
        #expect(await domainError { _ = try await update(input, store: store) }
            == DomainError(.badUserInput, "avatarURL can only be set by uploading an avatar", field: "avatarURL"))
    }
}

@Suite("HomeZIPRule: postal codes as the world writes them")
struct HomeZIPRuleTests {
    @Test("US ZIP and ZIP+4, UK, Canadian and Dutch postcodes pass; markup, one character, a leading hyphen and non-ASCII digits do not")
    func examples() {
        for zip in ["80302", "80302-1234", "SW1A 1AA", "K1A 0B1", "1234 AB", "75008", "10"] {
            #expect(HomeZIPRule.isValid(zip), "\(zip)")
        }
        for zip in ["", "8", "-80302", " 80302", "<b>1</b>", "80302_1", "12345678901", "８０３０２", "80302\n"] {
            #expect(!HomeZIPRule.isValid(zip), "\(zip)")
        }
    }
}

@Suite("GetOwnerDetails: the owner-only fields")
struct GetOwnerDetailsTests {
    @Test("the owner gets her details; anyone else gets nil without a store call")
    func ownerOnly() async throws {
        let store = await Fixture.store()
        var input = ProfileUpdateInput()
        input.homeZIP = .set(" 80302 ")
        _ = try await UpdateProfile(profiles: store).execute(input: input, viewer: Fixture.aliceViewer)
        let useCase = GetOwnerDetails(profiles: store)
        #expect(try await useCase.execute(profileId: Fixture.alice, viewer: Fixture.aliceViewer)?.homeZIP == "80302")
        await store.resetCalls()
        #expect(try await useCase.execute(profileId: Fixture.alice, viewer: Fixture.bobViewer) == nil)
        #expect(try await useCase.execute(profileId: Fixture.alice, viewer: .anonymous) == nil)
        #expect(await store.calls.isEmpty)
    }
}
