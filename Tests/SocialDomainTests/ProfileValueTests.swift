import Foundation
import Testing
@testable import SocialDomain

/// `Profile` keeps its fields behind one shared reference: it must still behave as a value.
@Suite("Profile: a value, though its fields are shared between copies")
struct ProfileValueTests {
    func make(bio: String? = "Sends on weekends") -> Profile {
        Profile(
            id: Fixture.alice, handle: "alice_wonder", displayName: "Alice", bio: bio, avatarURL: nil, homeGym: "Boulder Barn",
            climbingSince: nil, favoriteStyle: "slab", isPublic: true, followerCount: 3, followingCount: 2, sendCount: 9,
            postCount: 1, createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_500))
    }

    @Test("setting a field of a copy leaves the original as it was, and every other field of the copy too")
    func copyOnSet() {
        let original = make()
        var copy = original
        copy.bio = "Moved to routes"
        copy.followerCount += 1
        #expect(original.bio == "Sends on weekends" && original.followerCount == 3)
        #expect(copy.bio == "Moved to routes" && copy.followerCount == 4)
        #expect(copy.handle == original.handle && copy.homeGym == original.homeGym && copy.sendCount == original.sendCount
            && copy.createdAt == original.createdAt && copy.updatedAt == original.updatedAt)
        #expect(copy != original)
    }

    @Test("profiles built apart with the same fields are equal and hash alike; one differing field makes them differ")
    func equalityByValue() {
        #expect(make() == make())
        #expect(Set([make(), make()]).count == 1)
        #expect(make() != make(bio: nil))
        var changedBack = make()
        changedBack.isPublic = false
        changedBack.isPublic = true
        #expect(changedBack == make() && changedBack.hashValue == make().hashValue)
    }
}
