import Foundation
import PostgresNIO
import PostgresStore
import SocialDomain
import SocialFixtures
import SupabaseSchema

/// Filling the fake's database and reading it back, as the project's operator would (the
/// superuser; a SQL editor or the service role): what a test puts in place before the store
/// asks, and what it checks afterwards regardless of row-level security.
///
/// Rows go in through ``PostgresSeed``, as the PostgreSQL store's test databases get theirs, so
/// the demo users and the load-test graph (`SocialFixtures`' ``DemoData`` and ``LoadTestGraph``)
/// are the same rows in every store and a test's assertions hold on each.
extension SupabaseFake {
    /// Adds a profile as it is, counters included (with its `auth.users` row).
    public func addProfile(_ profile: Profile) async throws {
        try await add(profiles: [profile], follows: [])
    }

    /// Adds a follow with the triggers on, so both counters move as a follow's would; returns
    /// its id.
    @discardableResult
    public func addFollow(_ follower: UUID, _ followee: UUID, createdAtMicroseconds: Int64, id: UUID = UUID()) async throws -> UUID {
        try await database.asAdmin { connection, logger in
            let at = "timestamptz 'epoch' + interval '1 microsecond' * \(createdAtMicroseconds)"
            try await connection.query(PostgresQuery(unsafeSQL: """
                insert into public.follows (id, follower_id, followee_id, created_at, updated_at)
                values ('\(id.lowercased)', '\(follower.lowercased)', '\(followee.lowercased)', \(at), \(at))
                """), logger: logger)
        }
        return id
    }

    /// Adds profiles whose counters already count `follows`, then the follows as they are
    /// (bulk loads: triggers off, no counter moves).
    public func add(profiles: [Profile], follows: [Follow]) async throws {
        try await database.asAdmin { connection, logger in
            try await PostgresSeed.insert(profiles: profiles, follows: follows, ownerDetails: [:], on: connection, logger: logger)
        }
    }

    /// The demo data (``DemoData``), as the embedded store seeds it on first start: alice_wonder,
    /// bob_builder, carol_creator and dana_quiet with the same ids, fields, times, counters,
    /// follows, posts and owner details; their accounts sign in with ``DemoData/password``.
    public func seedDemoData() async throws {
        try await database.asAdmin { connection, logger in
            try await PostgresSeed.insert(
                profiles: DemoData.profiles, follows: DemoData.follows, ownerDetails: DemoData.ownerDetails, on: connection, logger: logger)
            try await PostgresSeed.insert(posts: DemoData.posts, likes: DemoData.likes, comments: DemoData.comments, on: connection, logger: logger)
        }
        lock.withLock {
            for user in DemoData.users {
                guard let email = DemoData.email(of: user.id) else { continue }
                accountsByEmail[email] = FakeAccount(
                    id: user.id, email: email, password: DemoData.password, createdAtMicroseconds: DemoData.createdAtMicroseconds)
            }
        }
    }

    /// Adds posts as they are (their authors' post counts must already count them), with the
    /// likes and comments that their counters count.
    public func add(posts: [Post], likes: [(post: UUID, profile: UUID)], comments: [Comment]) async throws {
        try await database.asAdmin { connection, logger in
            try await PostgresSeed.insert(posts: posts, likes: likes, comments: comments, on: connection, logger: logger)
        }
    }

    /// Sets a profile's owner-only fields as they are, as the service role can (premium too).
    public func setOwnerDetails(_ details: ProfileOwnerDetails, for id: UUID) async throws {
        var updates = PostgresBindings()
        updates.append(id.lowercased)
        updates.append(details.homeZIP)
        updates.append(details.preferredGradeScaleBoulder)
        updates.append(details.preferredGradeScaleRoute)
        updates.append(details.premium.map { UnixMicroseconds.from($0.expiresAt) })
        updates.append(details.premium?.productId)
        updates.append(details.premium?.originalTransactionId)
        let binds = updates
        try await database.asAdmin { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: """
                update public.profile_private set home_zip = $2, preferred_grade_scale_boulder = $3,
                  preferred_grade_scale_route = $4,
                  premium_expires_at = timestamptz 'epoch' + interval '1 microsecond' * $5::bigint,
                  premium_product_id = $6, premium_original_transaction_id = $7
                where id = $1::uuid
                """, binds: binds), logger: logger)
        }
    }

    /// A profile's owner-only fields as stored (empty when it has none).
    public func ownerDetails(_ id: UUID) async throws -> ProfileOwnerDetails {
        var binds = PostgresBindings()
        binds.append(id.lowercased)
        guard let text = try await database.adminText(
            "select to_json(r)::text from (select \(OwnerDetailsRow.columns) from public.profile_private where id = $1::uuid) r",
            binds: binds)
        else { return ProfileOwnerDetails() }
        return try JSONDecoder().decode(OwnerDetailsRow.self, from: Data(text.utf8)).details()
    }

    /// The ``LoadTestGraph`` of these arguments, the graph `EmbeddedStore.seed(profiles:followsPerProfile:randomSeed:)` inserts.
    public func seed(profiles count: Int, followsPerProfile: Int, randomSeed: UInt64 = 0x5EED) async throws {
        let graph = LoadTestGraph(profiles: count, followsPerProfile: followsPerProfile, randomSeed: randomSeed)
        try await database.asAdmin { connection, logger in
            try await PostgresSeed.insert(profiles: graph.profiles, follows: graph.follows, ownerDetails: [:], on: connection, logger: logger)
            try await PostgresSeed.analyze(on: connection, logger: logger)
        }
    }

    /// A profile as stored, whatever its visibility.
    public func profile(_ id: UUID) async throws -> Profile? {
        var binds = PostgresBindings()
        binds.append(id.lowercased)
        guard let text = try await database.adminText(
            "select public.profile_json(p)::text from public.profiles p where p.id = $1::uuid", binds: binds)
        else { return nil }
        return try JSONDecoder().decode(ProfileRow.self, from: Data(text.utf8)).profile()
    }

    /// Makes an author's stories expire now (a test stands in for the passing of 24 hours).
    public func expireStories(of author: UUID) async throws {
        try await database.asAdmin { connection, logger in
            try await connection.query("set session_replication_role = replica", logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: """
                update public.stories set created_at = created_at - interval '24 hours 1 second',
                  expires_at = expires_at - interval '24 hours 1 second' where author_id = '\(author.lowercased)'
                """), logger: logger)
        }
    }

    /// An object of the avatars bucket by its path inside the bucket (`<uid>/<file>`).
    public func object(_ path: String) -> (data: Data, contentType: String)? { lock.withLock { objects[path] } }

    /// Every stored object's key: an avatar's path as is, a story file's as `stories/<path>`.
    public func objectKeys() -> [String] { lock.withLock { Array(objects.keys) } }

    /// Puts a JPEG object into the avatars bucket directly (its row as its folder's owner's).
    public func putObject(_ path: String, _ data: Data) async throws {
        var row = PostgresBindings()
        row.append(path)
        row.append(data.count)
        let binds = row
        try await database.asAdmin { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: """
                insert into storage.objects (bucket_id, name, owner, metadata)
                values ('avatars', $1, (storage.foldername($1))[1]::uuid, jsonb_build_object('mimetype', 'image/jpeg', 'size', $2::bigint))
                on conflict (bucket_id, name) do nothing
                """, binds: binds), logger: logger)
        }
        lock.withLock { objects[path] = (data, "image/jpeg") }
    }

    /// `auth.users`' row of a new account, as GoTrue writes it: its trigger makes the profile.
    func insertUser(id: UUID, email: String, metadata: [String: String]) async throws {
        var row = PostgresBindings()
        row.append(id.lowercased)
        row.append(email)
        row.append(String(decoding: try JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys]), as: UTF8.self))
        let binds = row
        try await database.asAdmin { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: """
                insert into auth.users (id, email, raw_user_meta_data) values ($1::uuid, $2, $3::jsonb)
                """, binds: binds), logger: logger)
        }
    }

    /// GoTrue's clock (accounts, sign-ins). Call under ``lock``.
    func tick() -> Int64 {
        nowMicroseconds += 1_000
        return nowMicroseconds
    }
}
