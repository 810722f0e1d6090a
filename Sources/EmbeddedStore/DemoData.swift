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

    /// The demo users' sign-in emails (`alice@example.com` ...), one per ``users`` entry.
    public static func email(of id: UUID) -> String? {
        users.first { $0.id == id }.map { "\($0.handle.split(separator: "_").first ?? "")@example.com" }
    }

    /// The demo accounts' password, documented in the README: demo data only.
    public static let password = "climb-on-demo"

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

    /// Seed 003's mock posts: alice 3 about travel and coffee, bob 2 about DIY, carol 3 about art
    /// and design; ids `b1057000-0000-4000-8000-00000000000<n>`, an hour apart from 2025-01-02,
    /// counters matching ``likes`` and ``comments``.
    public static let posts: [Post] = {
        let texts: [(UUID, String)] = [
            (aliceId, "Sunrise over the Dolomites ☀️ Worth every step of the approach."),
            (bobId, "Built a new hangboard for the garage today 🔨"),
            (carolId, "Sketching route ideas for the new bouldering wall 🎨"),
            (aliceId, "Best flat white in Lisbon, found by accident."),
            (carolId, "Color study: chalk, rock and late light."),
            (bobId, "Step one of the woodie: the frame is up."),
            (aliceId, "Packing list for a week of sport climbing in Kalymnos."),
            (carolId, "Designed a poster for our local comp!"),
        ]
        return texts.enumerated().map { index, item in
            let n = index + 1
            let id = UUID(uuidString: String(format: "b1057000-0000-4000-8000-%012d", n))!
            let at = createdAtMicroseconds + 86_400_000_000 + Int64(index) * 3_600_000_000
            return Post(
                id: id, authorId: item.0, content: item.1,
                likeCount: likes.filter { $0.post == id }.count, commentCount: comments.filter { $0.postId == id }.count,
                createdAtMicroseconds: at, updatedAt: UnixMicroseconds.date(at))
        }
    }()

    /// Who likes which post: bob and carol like alice's first post, alice likes bob's first.
    public static let likes: [(post: UUID, profile: UUID)] = [
        (postId(1), bobId), (postId(1), carolId), (postId(2), aliceId),
    ]

    /// Two comments on alice's first post (bob's, then carol's) and alice's reply on bob's first.
    public static let comments: [Comment] = [
        Comment(id: commentId(1), postId: postId(1), authorId: bobId, content: "Stunning! Which hut did you start from?",
                createdAtMicroseconds: createdAtMicroseconds + 2 * 86_400_000_000),
        Comment(id: commentId(2), postId: postId(1), authorId: carolId, content: "I want to paint this 😍",
                createdAtMicroseconds: createdAtMicroseconds + 2 * 86_400_000_000 + 60_000_000),
        Comment(id: commentId(3), postId: postId(2), authorId: aliceId, content: "Send me the plans!",
                createdAtMicroseconds: createdAtMicroseconds + 2 * 86_400_000_000 + 120_000_000),
    ]

    public static func postId(_ n: Int) -> UUID { UUID(uuidString: String(format: "b1057000-0000-4000-8000-%012d", n))! }
    public static func commentId(_ n: Int) -> UUID { UUID(uuidString: String(format: "c0330000-0000-4000-8000-%012d", n))! }

    /// The three profiles as seeded: public, created (and updated) 1 s apart, counters matching
    /// ``follows`` and ``posts``.
    public static let profiles: [Profile] = users.enumerated().map { offset, user in
        let at = UnixMicroseconds.date(createdAtMicroseconds + Int64(offset) * 1_000_000)
        return Profile(
            id: user.id, handle: user.handle, displayName: user.displayName, bio: user.bio, isPublic: true,
            followerCount: follows.filter { $0.followeeId == user.id }.count,
            followingCount: follows.filter { $0.followerId == user.id }.count,
            postCount: posts.filter { $0.authorId == user.id }.count,
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
            // Posts, likes and comments; their counters come from the triggers.
            for post in DemoData.posts {
                try db.execute(sql: """
                    INSERT INTO posts (id, author_id, content, image_urls, created_at, updated_at) VALUES (?, ?, ?, '[]', ?, ?)
                    """, arguments: [post.id.lowercased, post.authorId.lowercased, post.content,
                                     post.createdAtMicroseconds, post.createdAtMicroseconds])
            }
            for like in DemoData.likes {
                try db.execute(
                    sql: "INSERT INTO post_likes (post_id, profile_id, created_at) VALUES (?, ?, ?)",
                    arguments: [like.post.lowercased, like.profile.lowercased, DemoData.createdAtMicroseconds + 2 * 86_400_000_000])
            }
            for comment in DemoData.comments {
                try db.execute(
                    sql: "INSERT INTO comments (id, post_id, author_id, content, created_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [comment.id.lowercased, comment.postId.lowercased, comment.authorId.lowercased, comment.content,
                                comment.createdAtMicroseconds])
            }
        }
    }
}

extension EmbeddedStore {
    /// A 1x1 PNG: the demo stories' picture.
    static let demoStoryPNG = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ])

    /// Gives each demo user one active story when none of them has one, so that the playground's
    /// tray is not empty on a first start (stories last 24 hours, so this looks at every start).
    func refreshDemoStories() async throws {
        let now = UnixMicroseconds.from(options.clock.now())
        let ids = DemoData.users.map { $0.id.lowercased }
        let active = try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM stories WHERE expires_at > ? AND author_id IN (?, ?, ?)",
                arguments: [now] + StatementArguments(ids)) ?? 0
        }
        let present = try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM profiles WHERE id IN (?, ?, ?)", arguments: StatementArguments(ids)) ?? 0
        }
        guard active == 0, present == ids.count else { return }
        for user in DemoData.users {
            let viewer = Viewer.user(id: user.id, token: "demo")
            let path = StoryMediaPath(
                owner: user.id, unixTime: now / 1_000_000, suffix: options.random.hex(8), format: .png)
            let url = try await storyDirectory.putStoryMedia(Self.demoStoryPNG, at: path, viewer: viewer)
            _ = try await createStory(mediaURL: url, path: path, viewer: viewer)
        }
    }
}

extension EmbeddedStore {
    /// The demo accounts' salts and hashes, made once per process (a salt each): every store a
    /// process opens with demo data (the test suites open hundreds) shares them.
    static let demoPasswordHashes: [UUID: (salt: Data, hash: Data)] = {
        var hashes: [UUID: (Data, Data)] = [:]
        for user in DemoData.users {
            let salt = PasswordHasher.salt()
            if let hash = try? PasswordHasher.hash(DemoData.password, salt: salt) { hashes[user.id] = (salt, hash) }
        }
        return hashes
    }()

    /// Gives each demo user an account (``DemoData/email(of:)``, ``DemoData/password``) when their
    /// profile is there and their account is not, so the playground can sign in as them too.
    func ensureDemoAccounts() async throws {
        let missing = try await pool.read { db in
            try DemoData.users.filter { user in
                try Bool.fetchOne(db, sql: """
                    SELECT EXISTS (SELECT 1 FROM profiles WHERE id = ?1) AND NOT EXISTS (SELECT 1 FROM accounts WHERE id = ?1)
                    """, arguments: [user.id.lowercased]) ?? false
            }
        }
        guard !missing.isEmpty else { return }
        let now = UnixMicroseconds.from(options.clock.now())
        var rows: [(String, String, Data, Data)] = []
        for user in missing {
            guard let (salt, hash) = Self.demoPasswordHashes[user.id] else { continue }
            rows.append((user.id.lowercased, DemoData.email(of: user.id) ?? "", hash, salt))
        }
        try await pool.write { [rows] db in
            for (id, email, hash, salt) in rows {
                try db.execute(
                    sql: "INSERT INTO accounts (id, email, password_hash, salt, verified_at, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id, email, hash, salt, now, now])
            }
        }
    }
}

extension EmbeddedStore {
    /// Disables the published demo password wherever a demo account still has it, and ends those
    /// accounts' sessions: for a server started without demo data on a data folder that once had
    /// it, so that a deployment never signs anyone in as a demo user. Costs one scrypt per demo
    /// account present, at start only.
    /// - Returns: how many accounts were locked.
    public func lockDemoAccounts() async throws -> Int {
        let ids = DemoData.users.map(\.id.lowercased)
        let rows = try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, password_hash, salt FROM accounts WHERE id IN (?, ?, ?)", arguments: StatementArguments(ids))
                .map { (id: $0[0] as String, hash: $0[1] as Data, salt: $0[2] as Data) }
        }
        var locked: [String] = []
        for row in rows where try await PasswordHasher.verified(DemoData.password, salt: row.salt, expected: row.hash) {
            locked.append(row.id)
        }
        guard !locked.isEmpty else { return 0 }
        let now = UnixMicroseconds.from(options.clock.now())
        try await pool.write { [locked] db in
            for id in locked {
                // Random bytes of another length than a hash: no password verifies against them.
                try db.execute(sql: "UPDATE accounts SET password_hash = ?, salt = ? WHERE id = ?",
                               arguments: [Data((0..<16).map { _ in UInt8.random(in: 0...255) }), PasswordHasher.salt(), id])
                try db.execute(sql: "UPDATE account_sessions SET ended_at = ? WHERE account_id = ? AND ended_at IS NULL", arguments: [now, id])
            }
        }
        return locked.count
    }
}
