import Foundation
import GRDB
import SocialDomain
import SocialFixtures

/// What ``EmbeddedStore/seed(profiles:followsPerProfile:randomSeed:)`` inserted.
public struct SeedSummary: Sendable, Hashable {
    public var profiles: Int
    public var follows: Int
    public var posts: Int = 0
    /// The first generated profile's id (handle `user1`).
    public var firstProfileId: UUID?
}

extension EmbeddedStore {
    /// Inserts the ``LoadTestGraph`` of these arguments (`profiles` deterministic profiles and
    /// `followsPerProfile` follows from each), for load tests. Same arguments, same data.
    ///
    /// One transaction with prepared statements; profiles are inserted with their final counters
    /// and follows without the per-row counter trigger (re-created before commit).
    ///
    /// ```swift
    /// let summary = try await store.seed(profiles: 100_000, followsPerProfile: 10)
    /// ```
    /// - Throws: `SQLITE_CONSTRAINT` when a `user<i>` handle already exists.
    @discardableResult
    public func seed(
        profiles count: Int, followsPerProfile: Int, postsPerProfile: Int = 0, randomSeed: UInt64 = 0x5EED
    ) async throws -> SeedSummary {
        let graph = LoadTestGraph(
            profiles: count, followsPerProfile: followsPerProfile, postsPerProfile: postsPerProfile, randomSeed: randomSeed)
        return try await pool.writeWithoutTransaction { db in
            // Random UUID keys make index inserts random: a 256 MB page cache for this bulk load
            // keeps the indexes in memory (the default 2 MB thrashes), then back to the default.
            let previousCacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -262144")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(previousCacheSize)") }
            try db.inTransaction(.immediate) {
                try Self.insertSeed(db, graph)
                return .commit
            }
            return SeedSummary(
                profiles: count, follows: graph.pairs.count, posts: graph.postIds.count,
                firstProfileId: graph.profileIds.first.flatMap(UUID.init(uuidString:)))
        }
    }

    static func insertSeed(_ db: Database, _ graph: LoadTestGraph) throws {
        let insertProfile = try db.makeStatement(sql: """
            INSERT INTO profiles (id, handle, display_name, bio, is_public, follower_count, following_count,
                                  post_count, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for i in graph.profileIds.indices {
            let profile = graph.profile(at: i)
            let at = LoadTestGraph.baseMicroseconds + Int64(i) * 1_000_000
            insertProfile.setUncheckedArguments([
                graph.profileIds[i], profile.handle, profile.displayName, profile.bio, profile.isPublic,
                profile.followerCount, profile.followingCount, profile.postCount, at, at,
            ])
            try insertProfile.execute()
        }
        // The counters above already include these follows: insert them without the trigger.
        try db.execute(sql: "DROP TRIGGER follows_count_insert")
        // A load-test graph notifies nobody (as the PostgreSQL seed, which runs without triggers).
        try db.execute(sql: "DROP TRIGGER follows_notify_insert")
        let insertFollow = try db.makeStatement(sql: """
            INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
            """)
        for (n, pair) in graph.pairs.enumerated() {
            let at = graph.followCreatedAt(n)
            insertFollow.setUncheckedArguments([graph.followIds[n], graph.profileIds[pair.follower], graph.profileIds[pair.followee], at, at])
            try insertFollow.execute()
        }
        try db.execute(sql: EmbeddedSchema.insertCounterTrigger)
        try db.execute(sql: EmbeddedSchema.followsNotifyInsertTrigger)
        // Post counts are in the profiles too: posts go in without their trigger.
        try db.execute(sql: "DROP TRIGGER posts_count_insert")
        let insertPost = try db.makeStatement(sql: """
            INSERT INTO posts (id, author_id, content, image_urls, created_at, updated_at) VALUES (?, ?, ?, '[]', ?, ?)
            """)
        for post in graph.posts {
            insertPost.setUncheckedArguments([post.id.lowercased, post.authorId.lowercased, post.content,
                                              post.createdAtMicroseconds, post.createdAtMicroseconds])
            try insertPost.execute()
        }
        try db.execute(sql: EmbeddedSchema.postsCountInsertTrigger)
    }
}
