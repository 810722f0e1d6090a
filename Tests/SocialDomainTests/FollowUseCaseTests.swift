import Foundation
import Testing
@testable import SocialDomain

@Suite("Follow use cases (seeds 000/001/003)")
struct FollowUseCaseTests {
    /// The stores do not check it again (issue 55): this rule is the only one.
    @Test("following, toggling or unfollowing yourself is rejected with CANNOT_FOLLOW_SELF before any store call")
    func selfFollow() async {
        let store = await Fixture.store()
        for run in [
            { try await ToggleFollow(follows: store).execute(profileId: Fixture.alice, viewer: Fixture.aliceViewer) },
            { try await FollowProfile(follows: store).execute(profileId: Fixture.alice, viewer: Fixture.aliceViewer) },
            { try await UnfollowProfile(follows: store).execute(profileId: Fixture.alice, viewer: Fixture.aliceViewer) },
        ] {
            let error = await domainError { _ = try await run() }
            #expect(error == DomainError(.cannotFollowSelf, "You cannot follow yourself"))
        }
        #expect(await store.calls.isEmpty)
    }

    @Test("an anonymous viewer cannot follow: UNAUTHENTICATED")
    func anonymous() async {
        let store = await Fixture.store()
        let error = await domainError { _ = try await UnfollowProfile(follows: store).execute(profileId: Fixture.bob, viewer: .anonymous) }
        #expect(error == DomainError(.unauthenticated, "You must be logged in to follow users"))
    }

    @Test("toggle returns the new state each time")
    func toggleState() async throws {
        let store = await Fixture.store()
        let toggle = ToggleFollow(follows: store)
        #expect(try await toggle.execute(profileId: Fixture.bob, viewer: Fixture.aliceViewer).isFollowing)
        #expect(try await !toggle.execute(profileId: Fixture.bob, viewer: Fixture.aliceViewer).isFollowing)
        #expect(try await FollowProfile(follows: store).execute(profileId: Fixture.bob, viewer: Fixture.aliceViewer).isFollowing)
    }

    @Test("follow states for many profiles are one store call; anonymous makes none")
    func followStates() async throws {
        let store = await Fixture.store()
        _ = try await FollowProfile(follows: store).execute(profileId: Fixture.bob, viewer: Fixture.aliceViewer)
        let carol = UUID()
        let states = try await GetFollowStates(follows: store)
            .execute(profileIds: [Fixture.bob, carol, Fixture.alice, Fixture.bob], viewer: Fixture.aliceViewer)
        #expect(states.map(\.viewerIsFollowing) == [true, false, false, true])
        #expect(states.map(\.followsViewer) == [false, false, false, false])
        let reverse = try await GetFollowStates(follows: store).execute(profileIds: [Fixture.alice], viewer: Fixture.bobViewer)
        #expect(reverse == [FollowState(profileId: Fixture.alice, viewerIsFollowing: false, followsViewer: true)])
        #expect(await store.calls == ["changeFollow", "activeFollows", "activeFollows"])
        let anonymous = try await GetFollowStates(follows: store).execute(profileIds: [Fixture.bob], viewer: .anonymous)
        #expect(anonymous == [FollowState(profileId: Fixture.bob, viewerIsFollowing: false, followsViewer: false)])
        #expect(await store.calls.count == 3)
    }

    @Test("page arguments are checked before any store call")
    func pageArgumentsFirst() async {
        let store = await Fixture.store()
        let error = await domainError {
            _ = try GetFollowPages.request(.following, of: Fixture.bob, first: 51, viewer: .anonymous)
        }
        #expect(error == DomainError(.badUserInput, "first must be between 0 and 50", field: "first"))
        #expect(await store.calls.isEmpty)
    }
}

@Suite("SyncFollows (seed 000 fetchUpdatedSince)")
struct SyncFollowsTests {
    @Test("signed in only, with the seeds' wording; first is 1 to 100 (default 50); a cursor must be the viewer's own sync cursor")
    func rules() throws {
        #expect(throws: DomainError(.unauthenticated, "You must be logged in to sync follows")) {
            try SyncFollows.validate(sinceMicroseconds: 0, first: nil, after: nil, viewer: .anonymous)
        }
        #expect(try SyncFollows.validate(sinceMicroseconds: 7, first: nil, after: nil, viewer: Fixture.aliceViewer)
            == FollowSyncRequest(sinceMicroseconds: 7, after: nil, limit: 50))
        for bad in [0, 101] {
            #expect(throws: DomainError.badUserInput("first must be between 1 and 100", field: "first")) {
                try SyncFollows.validate(sinceMicroseconds: 0, first: bad, after: nil, viewer: Fixture.aliceViewer)
            }
        }
        let key = SyncKeyset(updatedAtMicroseconds: 1_700_000_000_123_456, followId: Fixture.bob)
        let mine = PageCursor.sync(owner: Fixture.alice, key).encoded
        #expect(PageCursor.decode(mine) == .sync(owner: Fixture.alice, key))
        #expect(try SyncFollows.validate(sinceMicroseconds: 0, first: 1, after: mine, viewer: Fixture.aliceViewer).after == key)
        let bobs = PageCursor.sync(owner: Fixture.bob, key).encoded
        let list = PageCursor.follow(FollowList(.following, of: Fixture.alice), FollowKeyset(createdAtMicroseconds: 1, followId: Fixture.bob)).encoded
        for foreign in [bobs, list] {
            #expect(throws: DomainError.badUserInput("after is not a valid cursor for this list", field: "after")) {
                try SyncFollows.validate(sinceMicroseconds: 0, first: 1, after: foreign, viewer: Fixture.aliceViewer)
            }
        }
    }
}
