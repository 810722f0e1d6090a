import EmbeddedStore
import Foundation
import SocialDomain
import SocialFixtures
import Testing

@Suite("Embedded avatars (media files)")
struct MediaStoreTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE])

    @Test("an uploaded avatar is a file under <data>/avatars and the profile points at its public URL")
    func upload() async throws {
        let f = try await StoreFixture.make()
        let upload = try await UploadAvatar(profiles: f.store, media: f.store, clock: f.clock, random: SeededRandom(seed: 1))
            .execute(bytes: Self.png, viewer: StoreFixture.alice)
        let path = upload.path.description
        #expect(path.hasPrefix("a11ce000-0000-4000-8000-000000000001/1750000000_") && path.hasSuffix(".png"))
        #expect(upload.profile.avatarURL == "http://127.0.0.1:8080/avatars/\(path)")
        let file = try #require(f.store.mediaDirectory.file(.avatar, forRequestPath: path))
        #expect(file.path == f.store.dataDirectory.appendingPathComponent("avatars/\(path)").path)
        #expect(try Data(contentsOf: file) == Self.png)
        let reread = try await f.store.profiles(ids: [DemoData.aliceId], viewer: .anonymous)[DemoData.aliceId]
        #expect(reread?.avatarURL == upload.publicURL)
    }

    @Test("when the profile update fails after the upload, no file is left behind")
    func noOrphan() async throws {
        let f = try await StoreFixture.make()
        let ghost = UUID()   // signed in, but has no profile row
        let error = await domainError {
            _ = try await UploadAvatar(profiles: f.store, media: f.store, clock: f.clock)
                .execute(bytes: Self.png, viewer: StoreFixture.viewer(ghost))
        }
        #expect(error == DomainError(.notFound, "Profile not found"))
        let folder = f.store.mediaDirectory.folder(for: .avatar).appendingPathComponent(ghost.lowercased)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(f.store.callCounts["deleteAvatar"] == 1)
    }

    @Test("writing into another user's folder is FORBIDDEN and request paths outside the scheme are refused")
    func ownershipAndPaths() async throws {
        let f = try await StoreFixture.make()
        let path = MediaPath(kind: .avatar, owner: DemoData.bobId, unixTime: 1, suffix: "deadbeef", format: .jpeg)
        let error = await domainError { _ = try await f.store.putMedia(Data([0xFF, 0xD8, 0xFF]), at: path, viewer: StoreFixture.alice) }
        #expect(error == DomainError(.forbidden, "Not authorized to perform storage operation"))
        for bad in ["../social.sqlite", "\(DemoData.bobId.lowercased)/../../x.png", "\(DemoData.bobId.uuidString)/1_deadbeef.jpg",
                    "\(DemoData.bobId.lowercased)/1_deadbeef.gif", "\(DemoData.bobId.lowercased)/1_DEADBEEF.jpg",
                    "\(DemoData.bobId.lowercased)/1_deadbeef.mp4"] {
            #expect(f.store.mediaDirectory.file(.avatar, forRequestPath: bad) == nil, "\(bad)")
        }
        #expect(f.store.mediaDirectory.file(.avatar, forRequestPath: "\(DemoData.bobId.lowercased)/1_deadbeef.jpg") != nil)
        // A story's video is a story's, never an avatar: the kind decides the formats.
        #expect(f.store.mediaDirectory.file(.story, forRequestPath: "\(DemoData.bobId.lowercased)/1_deadbeef.mp4") != nil)
    }
}
