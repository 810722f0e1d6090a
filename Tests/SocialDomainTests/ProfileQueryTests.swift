import Foundation
import Testing
@testable import SocialDomain

@Suite("BatchGetProfiles, SearchProfiles")
struct ProfileQueryTests {
    @Test("a private profile is visible only to its owner")
    func privateProfile() async throws {
        let store = await Fixture.store()
        let carol = UUID()
        await store.add(Fixture.profile(carol, "carol_creator", isPublic: false))
        let get = BatchGetProfiles(profiles: store)
        #expect(try await get.execute(ids: [carol], viewer: Fixture.aliceViewer) == [nil])
        #expect(try await get.execute(handles: ["CAROL_creator"], viewer: .anonymous) == [nil])
        #expect(try await get.execute(ids: [carol], viewer: .user(id: carol, token: "t")).first??.handle == "carol_creator")
        #expect(try await get.execute(handles: ["Alice_Wonder"], viewer: .anonymous).first??.id == Fixture.alice)
    }

    @Test("batch reads keep the order, repeat duplicates, give nil for missing, in one store call")
    func batchOrder() async throws {
        let store = await Fixture.store()
        let missing = UUID()
        let result = try await BatchGetProfiles(profiles: store)
            .execute(ids: [Fixture.bob, missing, Fixture.alice, Fixture.bob], viewer: .anonymous)
        #expect(result.map { $0?.handle } == ["bob_builder", nil, "alice_wonder", "bob_builder"])
        let byHandle = try await BatchGetProfiles(profiles: store)
            .execute(handles: ["ALICE_WONDER", "nobody_here", "bad handle!", "bob_builder"], viewer: .anonymous)
        #expect(byHandle.map { $0?.id } == [Fixture.alice, nil, nil, Fixture.bob])
        #expect(await store.calls == ["profilesByID", "profilesByHandle"])
    }

    @Test("more than 100 ids in one batch is BAD_USER_INPUT")
    func batchLimit() async {
        let store = await Fixture.store()
        let error = await domainError {
            _ = try await BatchGetProfiles(profiles: store).execute(ids: (0..<101).map { _ in UUID() }, viewer: .anonymous)
        }
        #expect(error == DomainError(.badUserInput, "At most 100 ids can be requested at once", field: "ids"))
    }

    @Test("search query under 2 characters after trimming is rejected with BAD_USER_INPUT")
    func searchTooShort() async {
        let store = await Fixture.store()
        let error = await domainError {
            _ = try await SearchProfiles(profiles: store).execute(query: "  a \n", first: nil, after: nil, viewer: .anonymous)
        }
        #expect(error == DomainError(.badUserInput, "Search query must be at least 2 characters", field: "query"))
        #expect(await store.calls.isEmpty)
    }

    @Test("search page size must be between 1 and 50, default 20")
    func searchLimit() throws {
        #expect(try SearchProfiles.validate(query: " al ", first: nil, after: nil) == SearchQuery(text: "al", limit: 20))
        for bad in [0, 51] {
            #expect(throws: DomainError(.badUserInput, "first must be between 1 and 50", field: "first")) {
                try SearchProfiles.validate(query: "al", first: bad, after: nil)
            }
        }
    }

    @Test("a follow cursor given to search is BAD_USER_INPUT")
    func searchForeignCursor() {
        let cursor = PageCursor.follow(FollowList(.followers, of: Fixture.alice),
                                       FollowKeyset(createdAtMicroseconds: 1, followId: Fixture.bob)).encoded
        #expect(throws: DomainError(.badUserInput, "after is not a valid cursor for this list", field: "after")) {
            try SearchProfiles.validate(query: "al", first: 5, after: cursor)
        }
    }

    @Test("a search cursor from before ranking, or one ranked for another query, is BAD_USER_INPUT; this query's is taken")
    func searchRankedCursor() throws {
        let old = Base64URL.encode(Array("v1:search:bob:\(Fixture.bob.lowercased)".utf8))
        let otherQuery = PageCursor.search(SearchKeyset(rank: .exact, handleKey: "bobby", profileId: Fixture.bob)).encoded
        for cursor in [old, otherQuery] {
            #expect(throws: DomainError(.badUserInput, "after is not a valid cursor for this list", field: "after")) {
                try SearchProfiles.validate(query: "bob", first: 5, after: cursor)
            }
        }
        let key = SearchKeyset(rank: .prefix, handleKey: "bobby", profileId: Fixture.bob)
        #expect(try SearchProfiles.validate(query: "BOB", first: 5, after: PageCursor.search(key).encoded).after == key)
    }

    @Test("search ranks an exact handle, then a handle starting with the query, then the rest, case-insensitively")
    func searchRank() {
        let query = SearchQuery(text: "Bob")
        #expect(query.rank(of: "BOB") == .exact)
        #expect(query.rank(of: "bobby") == .prefix)
        #expect(query.rank(of: "BOB2") == .prefix)
        #expect(query.rank(of: "alice_bob") == .other)
    }

    @Test("% and _ in the search query are escaped for LIKE")
    func likeEscaping() {
        #expect(SearchQuery(text: "50%_Off\\x").containsPattern == "%50\\%\\_off\\\\x%")
    }
}

@Suite("CheckHandleAvailable (seed 000 checkHandleAvailable)")
struct CheckHandleAvailableTests {
    @Test("taken in any case, also by a private profile; free when no one holds it; the viewer's own is free to them")
    func availability() async throws {
        let store = await Fixture.store()
        let carol = UUID()
        await store.add(Fixture.profile(carol, "carol_creator", isPublic: false))
        let check = CheckHandleAvailable(profiles: store)
        #expect(try await check.execute(handle: "ALICE_wonder", viewer: .anonymous) == false)
        #expect(try await check.execute(handle: " carol_creator ", viewer: Fixture.aliceViewer) == false)
        #expect(try await check.execute(handle: "nobody_here", viewer: .anonymous) == true)
        #expect(try await check.execute(handle: "Alice_Wonder", viewer: Fixture.aliceViewer) == true)
    }

    @Test("a malformed handle is BAD_USER_INPUT with the handle rule, before any store call")
    func malformed() async {
        let store = await Fixture.store()
        let error = await domainError { _ = try await CheckHandleAvailable(profiles: store).execute(handle: "9lives", viewer: .anonymous) }
        #expect(error == DomainError(
            .badUserInput, "Invalid handle: Must be 3-30 characters, start with a letter, and contain only letters, numbers, and underscores",
            field: "handle"))
        #expect(await store.calls.isEmpty)
    }
}

@Suite("Sign-in rules of seed 001: search and follow lists")
struct SignInRulesTests {
    @Test("search needs a signed-in viewer, after the query rule; no store call for anonymous callers")
    func search() async {
        let store = await Fixture.store()
        let error = await domainError {
            _ = try await SearchProfiles(profiles: store).execute(query: "ali", first: nil, after: nil, viewer: .anonymous)
        }
        #expect(error == DomainError(.unauthenticated, "You must be logged in to search profiles"))
        #expect(await store.calls.isEmpty)
    }

    @Test("followers and following need a signed-in viewer, with the seed's messages")
    func lists() async {
        let store = await Fixture.store()
        let followers = await domainError {
            _ = try GetFollowPages.request(.followers, of: Fixture.alice, viewer: .anonymous)
        }
        #expect(followers == DomainError(.unauthenticated, "You must be logged in to view followers"))
        let following = await domainError {
            _ = try GetFollowPages.request(.following, of: Fixture.alice, viewer: .anonymous)
        }
        #expect(following == DomainError(.unauthenticated, "You must be logged in to view following"))
        #expect(await store.calls.isEmpty)
    }
}
