import Foundation
import GRDB
import SocialDomain
import SocialFixtures

/// The demo data (``DemoData``) in SQLite: first-start profiles, follows, posts, accounts and a story each.
extension EmbeddedStore {
    /// Inserts ``DemoData/fixture`` when the store has no profiles yet.
    func seedDemoDataIfEmpty() async throws {
        try await pool.write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM profiles") == 0 else { return }
            try Self.insert(DemoData.fixture, db)
        }
    }

    /// Inserts a fixture's rows as they are (ids, fields, times), in one transaction: the data a
    /// test seeds every store with identically (``SocialFixture``). Counters come from the
    /// triggers, as for any follow, post, like or comment, so they equal the fixture's when its
    /// profiles count its rows.
    /// - Throws: a constraint error when a row is already there.
    public func insert(_ fixture: SocialFixture) async throws {
        try await pool.write { db in try Self.insert(fixture, db) }
    }

    static func insert(_ fixture: SocialFixture, _ db: Database) throws {
        // Seeded rows notify nobody, as on PostgreSQL, whose seed runs without triggers: the
        // notifications their triggers write go again before the transaction ends.
        let notified = try Set(String.fetchAll(db, sql: "SELECT key FROM notifications"))
        defer { try? forgetNotifications(db, except: notified) }
        for profile in fixture.profiles {
            try db.execute(sql: """
                INSERT INTO profiles (id, handle, display_name, bio, photo_url, home_gym, climbing_since, favorite_style,
                                      is_public, send_count, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [profile.id.lowercased, profile.handle, profile.displayName, profile.bio, profile.avatarURL,
                                 profile.homeGym, profile.climbingSince?.description, profile.favoriteStyle, profile.isPublic,
                                 profile.sendCount, UnixMicroseconds.from(profile.createdAt), UnixMicroseconds.from(profile.updatedAt)])
        }
        for (id, details) in fixture.ownerDetails.sorted(by: { $0.key.lowercased < $1.key.lowercased }) {
            try db.execute(sql: """
                INSERT INTO profile_private (id, home_zip, preferred_grade_scale_boulder, preferred_grade_scale_route,
                  premium_expires_at, premium_product_id, premium_original_transaction_id, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id.lowercased, details.homeZIP, details.preferredGradeScaleBoulder,
                                 details.preferredGradeScaleRoute, details.premium.map { UnixMicroseconds.from($0.expiresAt) },
                                 details.premium?.productId, details.premium?.originalTransactionId,
                                 fixture.profiles.first { $0.id == id }.map { UnixMicroseconds.from($0.createdAt) } ?? 0])
        }
        for follow in fixture.follows {
            try db.execute(sql: """
                INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
                """, arguments: [follow.id.lowercased, follow.followerId.lowercased, follow.followeeId.lowercased,
                                 follow.createdAtMicroseconds, follow.createdAtMicroseconds])
        }
        // Posts, likes and comments; their counters come from the triggers.
        for post in fixture.posts {
            try db.execute(sql: """
                INSERT INTO posts (id, author_id, content, image_urls, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [post.id.lowercased, post.authorId.lowercased, post.content,
                                 try PostColumns.imageURLsJSON(post.imageURLs), post.createdAtMicroseconds,
                                 UnixMicroseconds.from(post.updatedAt)])
        }
        for like in fixture.likes {
            try db.execute(
                sql: "INSERT INTO post_likes (post_id, profile_id, created_at) VALUES (?, ?, ?)",
                arguments: [like.post.lowercased, like.profile.lowercased, fixture.likedAtMicroseconds])
        }
        for comment in fixture.comments {
            try db.execute(
                sql: "INSERT INTO comments (id, post_id, author_id, content, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [comment.id.lowercased, comment.postId.lowercased, comment.authorId.lowercased, comment.content,
                            comment.createdAtMicroseconds])
        }
    }
}

extension EmbeddedStore {
    /// Deletes the notifications not in `kept` (a fixture's, written by the triggers).
    static func forgetNotifications(_ db: Database, except kept: Set<String>) throws {
        for key in try String.fetchAll(db, sql: "SELECT key FROM notifications") where !kept.contains(key) {
            try db.execute(sql: "DELETE FROM notifications WHERE key = ?", arguments: [key])
        }
    }
}

extension EmbeddedStore {
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
            let path = MediaPath(
                kind: .story, owner: user.id, unixTime: now / 1_000_000, suffix: options.random.hex(8), format: .png)
            let url = try await mediaDirectory.putMedia(DemoData.storyImage, at: path, viewer: viewer)
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

extension EmbeddedStore {
    /// Adds ``DemoShowcase`` (a private profile with alice's pending request) to a served demo,
    /// once: when the demo users are there and dana is not. A data folder from before it gains
    /// it at its next start.
    func seedShowcaseIfMissing() async throws {
        try await pool.write { db in
            let user = DemoShowcase.privateUser
            let hasDemo = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM profiles WHERE id = ?)", arguments: [DemoData.aliceId.lowercased]) ?? false
            let hasDana = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM profiles WHERE id = ? OR lower(handle) = ?)",
                arguments: [user.id.lowercased, user.handle]) ?? false
            guard hasDemo, !hasDana else { return }
            let at = DemoShowcase.pendingRequest.createdAtMicroseconds
            try db.execute(sql: """
                INSERT INTO profiles (id, handle, display_name, bio, is_public, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?)
                """, arguments: [user.id.lowercased, user.handle, user.displayName, user.bio, at, at])
            let request = DemoShowcase.pendingRequest
            try db.execute(sql: """
                INSERT INTO follow_requests (requester_id, target_id, status, created_at) VALUES (?, ?, 'pending', ?)
                """, arguments: [request.requester.lowercased, request.target.lowercased, request.createdAtMicroseconds])
        }
    }
}
