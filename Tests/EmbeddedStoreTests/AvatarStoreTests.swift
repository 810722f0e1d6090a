import Foundation
import Testing
import EmbeddedStore
import SocialDomain

@Suite("Embedded avatars")
struct AvatarStoreTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE])

    @Test("an uploaded avatar is a file under <data>/avatars and the profile points at its public URL")
    func upload() async throws {
        let f = try await StoreFixture.make()
        let upload = try await UploadAvatar(profiles: f.store, avatars: f.store, clock: f.clock, random: SeededRandom(seed: 1))
            .execute(bytes: Self.png, viewer: StoreFixture.alice)
        let path = upload.path.description
        #expect(path.hasPrefix("a11ce000-0000-4000-8000-000000000001/1750000000_") && path.hasSuffix(".png"))
        #expect(upload.profile.avatarURL == "http://127.0.0.1:8080/avatars/\(path)")
        let file = try #require(f.store.avatarFile(forRequestPath: path))
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
            _ = try await UploadAvatar(profiles: f.store, avatars: f.store, clock: f.clock)
                .execute(bytes: Self.png, viewer: StoreFixture.viewer(ghost))
        }
        #expect(error == DomainError(.notFound, "Profile not found"))
        let folder = f.store.avatarsDirectory.appendingPathComponent(ghost.lowercased)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(f.store.callCounts["deleteAvatar"] == 1)
    }

    @Test("writing into another user's folder is FORBIDDEN and request paths outside the scheme are refused")
    func ownershipAndPaths() async throws {
        let f = try await StoreFixture.make()
        let path = AvatarPath(owner: DemoData.bobId, unixTime: 1, suffix: "deadbeef", format: .jpeg)
        let error = await domainError { _ = try await f.store.putAvatar(Data([0xFF, 0xD8, 0xFF]), at: path, viewer: StoreFixture.alice) }
        #expect(error == DomainError(.forbidden, "Not authorized to perform storage operation"))
        for bad in ["../social.sqlite", "\(DemoData.bobId.lowercased)/../../x.png", "\(DemoData.bobId.uuidString)/1_deadbeef.jpg",
                    "\(DemoData.bobId.lowercased)/1_deadbeef.gif", "\(DemoData.bobId.lowercased)/1_DEADBEEF.jpg"] {
            #expect(f.store.avatarFile(forRequestPath: bad) == nil, "\(bad)")
        }
        #expect(f.store.avatarFile(forRequestPath: "\(DemoData.bobId.lowercased)/1_deadbeef.jpg") != nil)
    }
}
