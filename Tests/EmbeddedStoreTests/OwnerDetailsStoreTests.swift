import Foundation
import SocialDomain
import SocialFixtures
import Testing

@Suite("Embedded owner-only fields: profile_private")
struct OwnerDetailsStoreTests {
    @Test("the demo users' details are seeded, and each viewer reads only their own")
    func readOwn() async throws {
        let f = try await StoreFixture.make()
        #expect(try await f.store.ownerDetails(viewer: StoreFixture.alice) == DemoData.ownerDetails[DemoData.aliceId])
        #expect(try await f.store.ownerDetails(viewer: StoreFixture.viewer(DemoData.carolId)) == ProfileOwnerDetails())
        #expect(try await f.store.ownerDetails(viewer: .anonymous) == ProfileOwnerDetails())
    }

    @Test("premium status is set and removed by the operator only, whole")
    func premiumByOperator() async throws {
        let f = try await StoreFixture.make()
        let premium = PremiumStatus(expiresAt: Date(timeIntervalSince1970: 1_800_000_000), productId: "premium.monthly",
                                    originalTransactionId: "42")
        try await f.store.setPremiumStatus(premium, for: DemoData.carolId)
        let carol = StoreFixture.viewer(DemoData.carolId)
        #expect(try await f.store.ownerDetails(viewer: carol).premium == premium)
        // An owner's ZIP update keeps the premium status.
        _ = try await f.update(DemoData.carolId) { $0.homeZIP = .set("10115") }
        #expect(try await f.store.ownerDetails(viewer: carol) == ProfileOwnerDetails(homeZIP: "10115", premium: premium))
        try await f.store.setPremiumStatus(nil, for: DemoData.carolId)
        #expect(try await f.store.ownerDetails(viewer: carol) == ProfileOwnerDetails(homeZIP: "10115"))
        let missing = await domainError { try await f.store.setPremiumStatus(premium, for: UUID()) }
        #expect(missing == DomainError.profileNotFound)
    }

    @Test("owner-only changes leave the profile's updatedAt; a failed handle change writes neither part")
    func oneTransaction() async throws {
        let f = try await StoreFixture.make()
        let before = try #require(try await f.store.profiles(ids: [DemoData.aliceId], viewer: StoreFixture.alice)[DemoData.aliceId])
        f.clock.advance(by: 60)
        let after = try await f.update(DemoData.aliceId) { $0.preferredGradeScaleRoute = .set("French") }
        #expect(after.updatedAt == before.updatedAt)
        let error = await domainError {
            _ = try await f.update(DemoData.aliceId) { $0.handle = .set("bob_builder"); $0.homeZIP = .set("99999") }
        }
        #expect(error == DomainError.handleTaken)
        #expect(try await f.store.ownerDetails(viewer: StoreFixture.alice).homeZIP == "80302")
    }

    @Test("createProfile takes seed 000's handle and home ZIP: trimmed, checked, stored for the owner")
    func createWithZIP() async throws {
        let f = try await StoreFixture.make()
        let dana = UUID()
        _ = try await f.store.createProfile(id: dana, handle: "dana_dyno", homeZIP: "  K1A 0B1 ")
        #expect(try await f.store.ownerDetails(viewer: StoreFixture.viewer(dana)).homeZIP == "K1A 0B1")
        let bad = await domainError { _ = try await f.store.createProfile(id: UUID(), handle: "eve_edge", homeZIP: "80302!") }
        #expect(bad == DomainError(.badUserInput, "Invalid home ZIP: \(HomeZIPRule.requirement)", field: "homeZIP"))
        #expect(try await f.store.isHandleTaken("eve_edge", viewer: .anonymous) == false)
    }
}
