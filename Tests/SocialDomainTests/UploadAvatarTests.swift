import Foundation
import Testing
@testable import SocialDomain

@Suite("UploadAvatar (seeds 000/001)")
struct UploadAvatarTests {
    /// A 1x1 PNG header (signature and IHDR): what the upload rule reads.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE])
    /// A 1x1 JPEG header (SOI, APP0, SOF0, EOI).
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0, 0xFF, 0xD9])
    let clock = ManualClock(Date(timeIntervalSince1970: 1_740_912_672.75))

    func useCase(_ store: InMemorySocialStore) -> UploadAvatar {
        UploadAvatar(profiles: store, media: store, clock: clock, random: SeededRandom(seed: 42))
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
        #expect(await store.calls == ["profilesByID", "putMedia avatar", "updateProfile", "deleteMedia avatar"])
    }

    @Test("an anonymous upload is UNAUTHENTICATED")
    func anonymous() async {
        let store = await Fixture.store()
        let error = await domainError { _ = try await useCase(store).execute(bytes: Self.jpeg, viewer: .anonymous) }
        #expect(error == DomainError(.unauthenticated, "You must be logged in to upload a photo"))
    }
}

@Suite("Avatar images: dimensions from the header, replaced avatars")
struct AvatarImageTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_750_000_000))

    static func png(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        for v in [width, height] { bytes += [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return Data(bytes + [8, 2, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("PNG and JPEG headers give their dimensions; JPEG markers before the frame header are skipped")
    func dimensions() {
        #expect(ImageDimensions(of: Self.png(width: 640, height: 480), format: .png) == ImageDimensions(width: 640, height: 480))
        #expect(ImageDimensions(of: UploadAvatarTests.jpeg, format: .jpeg) == ImageDimensions(width: 1, height: 1))
        // SOI, an EXIF-sized APP1, fill bytes, then SOF2 (progressive) declaring 300 x 200.
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE1, 0, 6, 1, 2, 3, 4, 0xFF, 0xFF, 0xC2, 0, 11, 8, 0, 200, 1, 44, 1, 1, 0x11, 0])
        #expect(ImageDimensions(of: jpeg, format: .jpeg) == ImageDimensions(width: 300, height: 200))
        #expect(ImageDimensions(of: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]), format: .png) == nil)
        #expect(ImageDimensions(of: Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2]), format: .jpeg) == nil)
        #expect(ImageDimensions(of: Data([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF]), format: .jpeg) == nil)
    }

    @Test("an image declaring more than 4096 pixels either way is PAYLOAD_TOO_LARGE; one without a header is UNSUPPORTED_MEDIA_TYPE")
    func dimensionRule() async {
        let store = await Fixture.store()
        let useCase = UploadAvatar(profiles: store, media: store, clock: clock, random: SeededRandom(seed: 1))
        for (w, h) in [(4097, 1), (1, 4097), (100_000, 100_000)] {
            let error = await domainError { _ = try await useCase.execute(bytes: Self.png(width: w, height: h), viewer: Fixture.aliceViewer) }
            #expect(error == DomainError(.payloadTooLarge, "Image exceeds maximum dimensions of 4096x4096 pixels", field: "file"))
        }
        let headerless = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: 64)
        let error = await domainError { _ = try await useCase.execute(bytes: headerless, viewer: Fixture.aliceViewer) }
        #expect(error == DomainError(.unsupportedMediaType, "Invalid image data provided", field: "file"))
        #expect(await store.objects.isEmpty)
        _ = try? await useCase.execute(bytes: Self.png(width: 4096, height: 4096), viewer: Fixture.aliceViewer)
        #expect(await store.objects.count == 1)
    }

    @Test("a new avatar deletes the one it replaces, once the profile points to it")
    func replacedAvatarIsDeleted() async throws {
        let store = await Fixture.store()
        let useCase = UploadAvatar(profiles: store, media: store, clock: clock, random: SeededRandom(seed: 1))
        let first = try await useCase.execute(bytes: UploadAvatarTests.png, viewer: Fixture.aliceViewer)
        let second = try await useCase.execute(bytes: UploadAvatarTests.jpeg, viewer: Fixture.aliceViewer)
        #expect(await Array(store.objects.keys) == [second.path.description])
        #expect(first.path != second.path)
        #expect(await store.calls.suffix(4) == ["profilesByID", "putMedia avatar", "updateProfile", "deleteMedia avatar"])
    }

    @Test("an avatar's MediaPath is read back from both stores' public URLs, and from nothing else")
    func pathFromURL() {
        let path = "a11ce000-0000-4000-8000-000000000001/1750000000_0123abcd.png"
        #expect(MediaPath(publicURL: "http://127.0.0.1:8080/avatars/\(path)", kind: .avatar)?.description == path)
        #expect(MediaPath(publicURL: "https://x.supabase.co/storage/v1/object/public/avatars/\(path)?v=2", kind: .avatar)?.description == path)
        #expect(MediaPath(publicURL: "https://cdn.example/someone-else.png", kind: .avatar) == nil)
        #expect(MediaPath(publicURL: "http://127.0.0.1:8080/avatars/..%2F\(path)", kind: .avatar) == nil)
    }
}
