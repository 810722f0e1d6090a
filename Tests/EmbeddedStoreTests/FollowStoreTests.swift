import Foundation
import SocialDomain
import SocialFixtures
import Testing

@Suite("Embedded follows: restore, counters, rules")
struct FollowStoreTests {
    @Test("following again after an unfollow restores the soft-deleted row instead of adding one")
    func softDeleteRestore() async throws {
        let f = try await StoreFixture.make()
        let dana = try await f.create("dana_dyno")
        let viewer = StoreFixture.viewer(dana)
        let follow = FollowProfile(follows: f.store), unfollow = UnfollowProfile(follows: f.store)
        let first = try await follow.execute(profileId: DemoData.aliceId, viewer: viewer)
        #expect(first.isFollowing && first.followee?.followerCount == 3 && first.follower?.followingCount == 1)
        let list = FollowList(.followers, of: DemoData.aliceId)
        let original = try await f.store.followPages([FollowPageRequest(list: list)], viewer: viewer)[0].edges[0].follow
        f.clock.advance(by: 60)
        let gone = try await unfollow.execute(profileId: DemoData.aliceId, viewer: viewer)
        #expect(!gone.isFollowing && gone.followee?.followerCount == 2 && gone.follower?.followingCount == 0)
        #expect(try await !unfollow.execute(profileId: DemoData.aliceId, viewer: viewer).isFollowing)
        #expect(try await f.store.followPages([FollowPageRequest(list: list)], viewer: viewer)[0].edges.count == 2)
        f.clock.advance(by: 60)
        let back = try await follow.execute(profileId: DemoData.aliceId, viewer: viewer)
        #expect(try await follow.execute(profileId: DemoData.aliceId, viewer: viewer).followee?.followerCount == 3)
        #expect(back.isFollowing && back.followee?.followerCount == 3)
        let edges = try await f.store.followPages([FollowPageRequest(list: list)], viewer: viewer)[0].edges
        #expect(edges.filter { $0.profile.id == dana }.map(\.follow) == [original])
        #expect(try await f.store.profilesWithDriftingCounters().isEmpty)
    }

    @Test("following yourself is CANNOT_FOLLOW_SELF; following for someone else is FORBIDDEN")
    func rules() async throws {
        let f = try await StoreFixture.make()
        let error = await domainError { _ = try await ToggleFollow(follows: f.store).execute(profileId: DemoData.aliceId, viewer: StoreFixture.alice) }
        #expect(error == DomainError(.cannotFollowSelf, "You cannot follow yourself"))
        let forged = FollowChange(pair: FollowPair(follower: DemoData.bobId, followee: DemoData.carolId), action: .unfollow)
        let forbidden = await domainError { _ = try await f.store.changeFollow(forged, viewer: StoreFixture.alice) }
        #expect(forbidden == DomainError(.forbidden, "Not authorized to perform this action"))
        let bob = try await f.store.profiles(ids: [DemoData.bobId], viewer: .anonymous)[DemoData.bobId]
        #expect(bob?.followingCount == 2)
    }

    @Test("following a missing profile is NOT_FOUND; following a private one asks, and shows only its card")
    func notFound() async throws {
        let f = try await StoreFixture.make()
        let error = await domainError { _ = try await FollowProfile(follows: f.store).execute(profileId: UUID(), viewer: StoreFixture.alice) }
        #expect(error == DomainError(.notFound, "Profile not found"))
        let secret = try await f.create("secret_sam", isPublic: false)
        let asked = try await FollowProfile(follows: f.store).execute(profileId: secret, viewer: StoreFixture.alice)
        #expect(!asked.isFollowing && asked.requestStatus == .pending && asked.changed)
        #expect(asked.followee?.access == .card && asked.followee?.handle == "secret_sam")
        #expect(asked.follower?.followingCount == 2)
        let pending = try await f.store.pendingFollowRequests(
            among: [FollowPair(follower: DemoData.aliceId, followee: secret)], viewer: StoreFixture.alice)
        #expect(pending == [FollowPair(follower: DemoData.aliceId, followee: secret)])
    }

    @Test("concurrent toggles of the same pair lose no update and never drive counters negative")
    func concurrentToggles() async throws {
        let f = try await StoreFixture.make()
        let toggle = ToggleFollow(follows: f.store)
        _ = try await UnfollowProfile(follows: f.store).execute(profileId: DemoData.bobId, viewer: StoreFixture.alice)
        let results = try await withThrowingTaskGroup(of: [Bool].self) { group in
            for _ in 0..<2 {
                group.addTask {
                    var states: [Bool] = []
                    for _ in 0..<200 { states.append(try await toggle.execute(profileId: DemoData.bobId, viewer: StoreFixture.alice).isFollowing) }
                    return states
                }
            }
            group.addTask {
                var states: [Bool] = []
                for _ in 0..<201 { states.append(try await toggle.execute(profileId: DemoData.aliceId, viewer: StoreFixture.bob).isFollowing) }
                return states
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let aliceToBob = results.filter { $0.count == 200 }.flatMap { $0 }
        #expect(aliceToBob.filter { $0 }.count == 200 && aliceToBob.filter { !$0 }.count == 200)
        let states = try await GetFollowStates(follows: f.store).execute(profileIds: [DemoData.bobId], viewer: StoreFixture.alice)
        #expect(states == [FollowState(profileId: DemoData.bobId, viewerIsFollowing: false, followsViewer: false)])
        let profiles = try await f.store.profiles(ids: [DemoData.aliceId, DemoData.bobId], viewer: .anonymous)
        #expect(profiles[DemoData.bobId]?.followerCount == 1)     // carol only
        #expect(profiles[DemoData.aliceId]?.followingCount == 1)  // carol only
        #expect(profiles[DemoData.aliceId]?.followerCount == 1)   // carol; bob's 201st toggle unfollowed
        #expect(try await f.store.profilesWithDriftingCounters().isEmpty)
    }

    @Test("reads run on the calling thread, on connections of their own: each toggle is read back at once, while 32 tasks read")
    func readYourWritesThroughSynchronousReaders() async throws {
        let f = try await StoreFixture.make()
        let toggle = ToggleFollow(follows: f.store)
        let pair = FollowPair(follower: DemoData.aliceId, followee: DemoData.bobId)
        let missed = try await withThrowingTaskGroup(of: Int.self) { group in
            // Readers: far more tasks than cooperative threads, each read blocking its thread.
            for _ in 0..<32 {
                group.addTask {
                    for _ in 0..<50 {
                        let pages = try await f.store.followPages(
                            [FollowPageRequest(list: FollowList(.followers, of: DemoData.bobId))], viewer: StoreFixture.alice)
                        #expect(pages.count == 1)
                    }
                    return 0
                }
            }
            // The writer: a toggle's outcome, read back through the other connections right after.
            group.addTask {
                var missed = 0
                for _ in 0..<100 {
                    let following = try await toggle.execute(profileId: DemoData.bobId, viewer: StoreFixture.alice).isFollowing
                    let active = try await f.store.activeFollows(among: [pair], viewer: StoreFixture.alice)
                    if active.contains(pair) != following { missed += 1 }
                }
                return missed
            }
            return try await group.reduce(0, +)
        }
        #expect(missed == 0)
    }
}
