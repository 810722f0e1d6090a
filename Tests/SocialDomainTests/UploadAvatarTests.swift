import Foundation
import Testing
@testable import SocialDomain

@Suite("UploadAvatar (seeds 000/001)")
struct UploadAvatarTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16])
    let clock = ManualClock(Date(timeIntervalSince1970: 1_740_912_672.75))

    func useCase(_ store: InMemorySocialStore) -> UploadAvatar {
        UploadAvatar(profiles: store, avatars: store, clock: clock, random: SeededRandom(seed: 42))
    }

    @Test("an image over 5 MB is rejected with PAYLOAD_TOO_LARGE")
    func tooLarge() async {
        let store = await Fixture.store()
        let bytes = Self.jpeg + Data(count: 5 * 1024 * 1024 - Self.jpeg.count + 1)
        let error = await domainError { _ = try await useCase(store).execute(bytes: bytes, viewer: Fixture.aliceViewer) }
        #expect(error == DomainError(.payloadTooLarge, "File exceeds maximum size of 5MB", field: "file"))
        #expect(await store.calls.isEmpty)
    }

    @Test("bytes that are not JPEG or PNG are rejected with UNSUPPORTED_MEDIA_TYPE")
    func notAnImage() async {
        let store = await Fixture.store()
        for bytes in [Data("GIF89a....".utf8), Data(), Data([0xFF, 0xD8])] {
            let error = await domainError { _ = try await useCase(store).execute(bytes: bytes, viewer: Fixture.aliceViewer) }
            #expect(error == DomainError(.unsupportedMediaType, "Invalid image data provided", field: "file"))
        }
    }

    @Test("an avatar is stored at {userId}/{unixTime}_{8 hex}.{ext} and the profile points at it")
    func storedPath() async throws {
        let store = await Fixture.store()
        let exactly5MB = Self.png + Data(count: 5 * 1024 * 1024 - Self.png.count)
        let upload = try await useCase(store).execute(bytes: exactly5MB, viewer: Fixture.aliceViewer)
        let text = upload.path.description
        #expect(text.hasPrefix("a11ce000-0000-4000-8000-000000000001/1740912672_"))
        #expect(text.hasSuffix(".png"))
        #expect(upload.path.suffix.count == 8 && upload.path.suffix.allSatisfy(\.isHexDigit))
        #expect(upload.profile.avatarURL == "http://127.0.0.1:8080/avatars/\(text)")
        #expect(await store.objects[text] == exactly5MB)
        let jpeg = try await useCase(store).execute(bytes: Self.jpeg, viewer: Fixture.aliceViewer)
        #expect(jpeg.path.description.hasSuffix(".jpg"))
    }

    @Test("if the profile update fails after the upload, the object is deleted again")
    func noOrphan() async {
        let store = await Fixture.store()
        await store.setFailUpdates(true)
        let error = await domainError { _ = try await useCase(store).execute(bytes: Self.jpeg, viewer: Fixture.aliceViewer) }
        #expect(error?.code == .backendUnavailable)
        #expect(await store.objects.isEmpty)
        #expect(await store.calls == ["putAvatar", "updateProfile", "deleteAvatar"])
    }

    @Test("an anonymous upload is UNAUTHENTICATED")
    func anonymous() async {
        let store = await Fixture.store()
        let error = await domainError { _ = try await useCase(store).execute(bytes: Self.jpeg, viewer: .anonymous) }
        #expect(error == DomainError(.unauthenticated, "You must be logged in to upload a photo"))
    }
}
