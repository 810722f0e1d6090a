import Foundation
import GRDB
import SocialDomain

/// The seed's demo users (seed 003 "mock users"), following each other, added on first start.
///
/// Their ids are fixed and documented so a `token HANDLE` command can mint a token for them:
///
/// | handle | id |
/// |---|---|
/// | alice_wonder | `a11ce000-0000-4000-8000-000000000001` |
/// | bob_builder | `b0b00000-0000-4000-8000-000000000002` |
/// | carol_creator | `ca201000-0000-4000-8000-000000000003` |
///
/// ``profiles`` and ``follows`` are the complete data as domain values, so any store (or a test
/// double of one, such as the Supabase fake) can hold exactly what the embedded store seeds and
/// the same assertions hold on both.
public enum DemoData {
    public static let aliceId = UUID(uuidString: "a11ce000-0000-4000-8000-000000000001")!
    public static let bobId = UUID(uuidString: "b0b00000-0000-4000-8000-000000000002")!
    public static let carolId = UUID(uuidString: "ca201000-0000-4000-8000-000000000003")!

    /// (id, handle, display name, bio) as in seed 003 (its emoji were mis-encoded there; these
    /// are the intended characters).
    public static let users: [(id: UUID, handle: String, displayName: String, bio: String)] = [
        (aliceId, "alice_wonder", "Alice Wonderland", "Adventure seeker 🌟"),
        (bobId, "bob_builder", "Bob Builder", "Can we fix it? Yes we can! 🔨"),
        (carolId, "carol_creator", "Carol Stevens", "Artist 🎨 | Designer"),
    ]

    /// The demo users' creation time, 2025-01-01T00:00:00Z (+1 s each), fixed so demo data is the
    /// same on every machine.
    public static let createdAtMicroseconds: Int64 = 1_735_689_600_000_000

    /// The demo users' owner-only fields: alice has a ZIP, both grade scales and a yearly premium
    /// subscription until 2027-01-01; bob a UK postcode and the European scales; carol nothing.
    public static let ownerDetails: [UUID: ProfileOwnerDetails] = [
        aliceId: ProfileOwnerDetails(
            homeZIP: "80302", preferredGradeScaleBoulder: "V", preferredGradeScaleRoute: "YDS",
            premium: PremiumStatus(
                expiresAt: UnixMicroseconds.date(1_798_761_600_000_000), productId: "socialclimb.premium.yearly",
                originalTransactionId: "2000000812345678")),
        bobId: ProfileOwnerDetails(homeZIP: "SW1A 1AA", preferredGradeScaleBoulder: "Font", preferredGradeScaleRoute: "French"),
    ]

    /// Looks a demo user up by handle (case-insensitive).
    public static func id(forHandle handle: String) -> UUID? {
        users.first { $0.handle == handle.lowercased() }?.id
    }

    /// The six follows: everyone follows everyone else, ids `f0110000-0000-4000-8000-00000000000<n>`,
    /// created 10 s after the users, 1 s apart, in the order of ``users``.
    public static let follows: [Follow] = {
        var follows: [Follow] = []
        for a in users {
            for b in users where a.id != b.id {
                let n = Int64(follows.count + 1)
                follows.append(Follow(
                    id: UUID(uuidString: String(format: "f0110000-0000-4000-8000-%012lld", n))!,
                    followerId: a.id, followeeId: b.id,
                    createdAtMicroseconds: createdAtMicroseconds + 10_000_000 + n * 1_000_000))
            }
        }
        return follows
    }()

    /// The three profiles as seeded: public, created (and updated) 1 s apart, counters matching
    /// ``follows``.
    public static let profiles: [Profile] = users.enumerated().map { offset, user in
        let at = UnixMicroseconds.date(createdAtMicroseconds + Int64(offset) * 1_000_000)
        return Profile(
            id: user.id, handle: user.handle, displayName: user.displayName, bio: user.bio, isPublic: true,
            followerCount: follows.filter { $0.followeeId == user.id }.count,
            followingCount: follows.filter { $0.followerId == user.id }.count,
            createdAt: at, updatedAt: at)
    }
}

extension EmbeddedStore {
    /// Inserts ``DemoData/profiles``, ``DemoData/ownerDetails`` and ``DemoData/follows`` when the store has no profiles yet
    /// (counters come from the follows' trigger, as for any follow).
    func seedDemoDataIfEmpty() async throws {
        try await pool.write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM profiles") == 0 else { return }
            for profile in DemoData.profiles {
                let at = UnixMicroseconds.from(profile.createdAt)
                try db.execute(sql: """
                    INSERT INTO profiles (id, handle, display_name, bio, is_public, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [profile.id.lowercased, profile.handle, profile.displayName, profile.bio,
                                     profile.isPublic, at, at])
            }
            for (id, details) in DemoData.ownerDetails.sorted(by: { $0.key.lowercased < $1.key.lowercased }) {
                try db.execute(sql: """
                    INSERT INTO profile_private (id, home_zip, preferred_grade_scale_boulder, preferred_grade_scale_route,
                      premium_expires_at, premium_product_id, premium_original_transaction_id, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id.lowercased, details.homeZIP, details.preferredGradeScaleBoulder,
                                     details.preferredGradeScaleRoute, details.premium.map { UnixMicroseconds.from($0.expiresAt) },
                                     details.premium?.productId, details.premium?.originalTransactionId,
                                     DemoData.createdAtMicroseconds])
            }
            for follow in DemoData.follows {
                try db.execute(sql: """
                    INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [follow.id.lowercased, follow.followerId.lowercased, follow.followeeId.lowercased,
                                     follow.createdAtMicroseconds, follow.createdAtMicroseconds])
            }
        }
    }
}
