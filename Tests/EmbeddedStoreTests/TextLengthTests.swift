@testable import EmbeddedStore
import Foundation
import GRDB
import SocialDomain
import SocialFixtures
import Testing

/// Lengths as the seeds count them (user-visible characters), and a table that allows what the
/// domain allows: migration v2 bounds the text columns in bytes instead of code points.
@Suite("Profile text lengths: characters as people see them")
struct TextLengthTests {
    /// 👍🏽: one character, two code points, eight bytes.
    static let thumbsUp = "\u{1F44D}\u{1F3FD}"

    @Test("a 280-character bio of emoji with skin tones is stored and read back; 281 is refused with the seed's count")
    func emojiBio() async throws {
        let f = try await StoreFixture.make()
        let bio = String(repeating: Self.thumbsUp, count: 280)
        #expect(bio.unicodeScalars.count == 560)
        let saved = try await f.update(DemoData.aliceId) { $0.bio = .set(bio) }
        #expect(saved.bio == bio)
        let read = try await BatchGetProfiles(profiles: f.store).load(ids: [DemoData.aliceId], viewer: .anonymous)[DemoData.aliceId]
        #expect(read?.bio == bio)
        let error = await domainError { _ = try await f.update(DemoData.aliceId) { $0.bio = .set(bio + Self.thumbsUp) } }
        #expect(error == DomainError(.badUserInput, "Bio is too long (281/280 characters)", field: "bio"))
    }

    @Test("a display name of 50 flags is 50 characters (100 code points) and fits")
    func flagsName() async throws {
        let f = try await StoreFixture.make()
        let name = String(repeating: "\u{1F1EB}\u{1F1F7}", count: 50)
        #expect(name.count == 50)
        #expect(try await f.update(DemoData.aliceId) { $0.displayName = .set(name) }.displayName == name)
    }

    @Test("a migration from v1 keeps every profile and follow, and the counter triggers still run")
    func migratesV1Data() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-v1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            // A store as the previous release left it: v1 only, with the demo data.
            let queue = try DatabaseQueue(path: folder.appendingPathComponent(EmbeddedStore.databaseFileName).path)
            try EmbeddedSchema.migrator.migrate(queue, upTo: "v1_profiles_follows")
            try await queue.write { db in
                for profile in DemoData.profiles {
                    try db.execute(
                        sql: "INSERT INTO profiles (id, handle, bio, is_public, created_at, updated_at) VALUES (?, ?, ?, 1, 0, 0)",
                        arguments: [profile.id.lowercased, profile.handle, profile.bio])
                }
                for follow in DemoData.follows {
                    try db.execute(
                        sql: "INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, 0, 0)",
                        arguments: [follow.id.lowercased, follow.followerId.lowercased, follow.followeeId.lowercased])
                }
            }
            try queue.close()
        }
        let store = try await EmbeddedStore.open(dataDirectory: folder, seedDemoData: false)
        let all = try await BatchGetProfiles(profiles: store).execute(ids: DemoData.profiles.map(\.id), viewer: .anonymous)
        #expect(all.map { $0?.handle } == DemoData.profiles.map(\.handle))
        #expect(all.map { $0?.followerCount } == DemoData.profiles.map { _ in 2 })
        _ = try await UnfollowProfile(follows: store).execute(profileId: DemoData.bobId, viewer: StoreFixture.alice)
        #expect(try await store.profilesWithDriftingCounters() == [])
        let bob = try await BatchGetProfiles(profiles: store).load(ids: [DemoData.bobId], viewer: .anonymous)[DemoData.bobId]
        #expect(bob?.followerCount == 1)
        let long = String(repeating: Self.thumbsUp, count: 280)
        _ = try await UpdateProfile(profiles: store).execute(input: { var i = ProfileUpdateInput(); i.bio = .set(long); return i }(),
                                                              viewer: StoreFixture.bob)
    }
}

@Suite("sendCount: a stored counter on every profile")
struct SendCountTests {
    @Test("every profile carries the stored send_count, in single reads and in follow pages")
    func readEverywhere() async throws {
        let f = try await StoreFixture.make()
        try await f.store.pool.write { db in
            try db.execute(sql: "UPDATE profiles SET send_count = 42 WHERE id = ?", arguments: [DemoData.aliceId.lowercased])
        }
        let alice = try await BatchGetProfiles(profiles: f.store).load(ids: [DemoData.aliceId], viewer: .anonymous)[DemoData.aliceId]
        #expect(alice?.sendCount == 42)
        let page = try await FollowersList(follows: f.store)
            .execute(profileId: DemoData.bobId, viewer: StoreFixture.reader)
        #expect(page.edges.first { $0.profile.id == DemoData.aliceId }?.profile.sendCount == 42)
    }
}
