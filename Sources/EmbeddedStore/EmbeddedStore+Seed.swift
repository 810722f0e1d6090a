import Foundation
import GRDB
import SocialDomain

/// What ``EmbeddedStore/seed(profiles:followsPerProfile:randomSeed:)`` inserted.
public struct SeedSummary: Sendable, Hashable {
    public var profiles: Int
    public var follows: Int
    /// The first generated profile's id (handle `user1`).
    public var firstProfileId: UUID?
}

extension EmbeddedStore {
    /// Generates `profiles` deterministic profiles and `followsPerProfile` follows from each,
    /// for load tests. Same arguments, same data: ids come from a SplitMix64 stream seeded
    /// with `randomSeed`.
    ///
    /// Profile `i` (1-based) has handle `user<i>`, display name `User <i>` (none for every 10th),
    /// is private for every 5th, and follows `followsPerProfile` distinct random others. One
    /// transaction with prepared statements; profiles are inserted with their final counters
    /// and follows without the per-row counter trigger (re-created before commit).
    ///
    /// ```swift
    /// let summary = try await store.seed(profiles: 100_000, followsPerProfile: 10)
    /// ```
    /// - Throws: `SQLITE_CONSTRAINT` when a `user<i>` handle already exists.
    @discardableResult
    public func seed(profiles count: Int, followsPerProfile: Int, randomSeed: UInt64 = 0x5EED) async throws -> SeedSummary {
        let random = SeededRandom(seed: randomSeed)
        let ids = (0..<count).map { _ in random.uuid().lowercased }
        let perProfile = count > 1 ? min(followsPerProfile, count - 1) : 0
        let base: Int64 = 1_704_067_200_000_000 // 2024-01-01T00:00:00Z
        // The follow graph first, so each profile is inserted with its final counters.
        var pairs: [(Int, Int)] = []
        pairs.reserveCapacity(count * perProfile)
        var followers = Array(repeating: 0, count: count)
        for i in 0..<count {
            var chosen = Set<Int>()
            while chosen.count < perProfile {
                let j = Int(random.next() % UInt64(count))
                guard j != i, chosen.insert(j).inserted else { continue }
                pairs.append((i, j))
                followers[j] += 1
            }
        }
        let followIds = pairs.map { _ in random.uuid().lowercased }
        return try await pool.writeWithoutTransaction { [pairs, followers] db in
            // Random UUID keys make index inserts random: a 256 MB page cache for this bulk load
            // keeps the indexes in memory (the default 2 MB thrashes), then back to the default.
            let previousCacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -262144")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(previousCacheSize)") }
            try db.inTransaction(.immediate) {
                try Self.insertSeed(db, ids: ids, pairs: pairs, followIds: followIds, followers: followers,
                                    perProfile: perProfile, base: base)
                return .commit
            }
            return SeedSummary(profiles: count, follows: pairs.count, firstProfileId: ids.first.flatMap(UUID.init(uuidString:)))
        }
    }

    static func insertSeed(
        _ db: Database, ids: [String], pairs: [(Int, Int)], followIds: [String], followers: [Int],
        perProfile: Int, base: Int64
    ) throws {
        let count = ids.count
        let insertProfile = try db.makeStatement(sql: """
            INSERT INTO profiles (id, handle, display_name, bio, is_public, follower_count, following_count,
                                  created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for i in 0..<count {
            let at = base + Int64(i) * 1_000_000
            let n = i + 1
            insertProfile.setUncheckedArguments([
                ids[i], "user\(n)", i % 10 == 9 ? nil : "User \(n)",
                i % 4 == 0 ? nil : "Climber number \(n).", i % 5 != 0, followers[i], perProfile, at, at,
            ])
            try insertProfile.execute()
        }
        // The counters above already include these follows: insert them without the trigger.
        try db.execute(sql: "DROP TRIGGER follows_count_insert")
        let insertFollow = try db.makeStatement(sql: """
            INSERT INTO follows (id, follower_id, followee_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
            """)
        let followsBase = base + Int64(count) * 1_000_000
        for (n, (i, j)) in pairs.enumerated() {
            let at = followsBase + Int64(n)
            insertFollow.setUncheckedArguments([followIds[n], ids[i], ids[j], at, at])
            try insertFollow.execute()
        }
        try db.execute(sql: EmbeddedSchema.insertCounterTrigger)
    }
}
