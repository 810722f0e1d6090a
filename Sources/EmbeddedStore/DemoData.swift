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

    /// Looks a demo user up by handle (case-insensitive).
    public static func id(forHandle handle: String) -> UUID? {
        users.first { $0.handle == handle.lowercased() }?.id
    }
}

extension EmbeddedStore {
    /// Inserts the demo users and their six follows when the store has no profiles yet.
    func seedDemoDataIfEmpty() async throws {
        try await pool.write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM profiles") == 0 else { return }
            for (offset, user) in DemoData.users.enumerated() {
                let at = DemoData.createdAtMicroseconds + Int64(offset) * 1_000_000
                try db.execute(sql: """
                    INSERT INTO profiles (id, handle, display_name, bio, is_public, created_at, updated_at)
                    VALUES (?, ?, ?, ?, 1, ?, ?)
                    """, arguments: [user.id.lowercased, user.handle, user.displayName, user.bio, at, at])
            }
            var n: Int64 = 0
            for a in DemoData.users {
                for b in DemoData.users where a.id != b.id {
                    n += 1
                    let at = DemoData.createdAtMicroseconds + 10_000_000 + n * 1_000_000
                    let id = String(format: "f0110000-0000-4000-8000-%012lld", n)
                    try db.execute(sql: """
                        INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
                        """, arguments: [id, a.id.lowercased, b.id.lowercased, at, at])
                }
            }
        }
    }
}
