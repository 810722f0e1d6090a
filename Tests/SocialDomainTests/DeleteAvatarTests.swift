import Foundation
import Synchronization
import Testing
@testable import SocialDomain

@Suite("DeleteAvatar (seed 000 deleteProfilePhoto)")
struct DeleteAvatarTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_740_912_672))

    func upload(_ store: InMemorySocialStore) async throws -> AvatarUpload {
        try await UploadAvatar(profiles: store, media: store, clock: clock, random: SeededRandom(seed: 1))
            .execute(bytes: UploadAvatarTests.png, viewer: Fixture.aliceViewer)
    }

    @Test("the profile is cleared first, then the object deleted; without an avatar nothing is written")
    func clearsThenDeletes() async throws {
        let store = await Fixture.store()
        let uploaded = try await upload(store)
        await store.resetCalls()
        let profile = try await DeleteAvatar(profiles: store, media: store, clock: clock).execute(viewer: Fixture.aliceViewer)
        #expect(profile.avatarURL == nil)
        #expect(await store.objects[uploaded.path.description] == nil)
        #expect(await store.calls == ["profilesByID", "updateProfile", "deleteMedia avatar"])
        await store.resetCalls()
        _ = try await DeleteAvatar(profiles: store, media: store, clock: clock).execute(viewer: Fixture.aliceViewer)
        #expect(await store.calls == ["profilesByID"])
    }

    @Test("a failed object deletion is reported for the logs and the removal still succeeds")
    func cleanupFailure() async throws {
        let store = await Fixture.store()
        let uploaded = try await upload(store)
        await store.setFailDeletes(true)
        let reported = Mutex<[MediaPath]>([])
        let profile = try await DeleteAvatar(
            profiles: store, media: store, clock: clock, onCleanupFailure: { path, _ in reported.withLock { $0.append(path) } }
        ).execute(viewer: Fixture.aliceViewer)
        #expect(profile.avatarURL == nil)
        #expect(reported.withLock { $0 } == [uploaded.path])
    }

    @Test("anonymous viewers are UNAUTHENTICATED with the seeds' wording")
    func anonymous() async {
        let store = await Fixture.store()
        let error = await domainError { _ = try await DeleteAvatar(profiles: store, media: store).execute(viewer: .anonymous) }
        #expect(error == DomainError(.unauthenticated, "You must be logged in to delete a photo"))
    }
}
