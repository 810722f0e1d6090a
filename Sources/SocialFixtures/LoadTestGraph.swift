import Foundation
import SocialDomain

/// The deterministic load-test dataset, as plain values: same arguments, same ids, handles and
/// follows, on every machine. The embedded store inserts it (`EmbeddedStore.seed(profiles:...)`)
/// and the Supabase fake loads it into its database (`SupabaseFake.seed(profiles:...)`).
///
/// Kept in no store, so that every store and test double holds exactly the same graph and a
/// test's figures compare.
///
/// Profile `i` (1-based) has handle `user<i>`, display name `User <i>` (none for every 10th), bio
/// `Climber number <i>.` (none for every 4th), is private for every 5th, and follows
/// `followsPerProfile` distinct random others. Ids come from a SplitMix64 stream seeded with
/// `randomSeed`: profile ids first, then the follow graph, then the follow ids.
///
/// ```swift
/// let graph = LoadTestGraph(profiles: 400, followsPerProfile: 60)
/// try await fake.add(profiles: graph.profiles, follows: graph.follows)
/// ```
public struct LoadTestGraph: Sendable {
    /// Lower-case profile ids, in handle order (`user1` first).
    public let profileIds: [String]
    /// (follower index, followee index) into ``profileIds``, in creation order.
    public let pairs: [Pair]
    /// Lower-case follow ids, parallel to ``pairs``.
    public let followIds: [String]
    /// Each profile's follower count (followee occurrences in ``pairs``).
    public let followerCounts: [Int]
    /// Follows per profile after clamping to `profiles - 1`.
    public let followsPerProfile: Int
    /// Posts per profile (for the feed's load tests).
    public let postsPerProfile: Int
    /// Lower-case post ids: profile `i`'s posts are `postIds[i * postsPerProfile ..<]`.
    public let postIds: [String]

    /// A follow as two indexes into ``profileIds``.
    public struct Pair: Sendable, Hashable {
        public var follower: Int
        public var followee: Int
    }

    /// The first profile's creation time, 2024-01-01T00:00:00Z; each next profile is 1 s later,
    /// and the follows start 1 s after the last profile, 1 µs apart.
    public static let baseMicroseconds: Int64 = 1_704_067_200_000_000

    /// - Parameter postsPerProfile: posts each profile has, drawn after the follows (so the ids of
    ///   profiles and follows do not depend on it).
    public init(profiles count: Int, followsPerProfile: Int, postsPerProfile: Int = 0, randomSeed: UInt64 = 0x5EED) {
        let random = SeededRandom(seed: randomSeed)
        profileIds = (0..<count).map { _ in random.uuid().lowercased }
        let perProfile = count > 1 ? min(followsPerProfile, count - 1) : 0
        var pairs: [Pair] = []
        pairs.reserveCapacity(count * perProfile)
        var followers = Array(repeating: 0, count: count)
        for i in 0..<count {
            var chosen = Set<Int>()
            while chosen.count < perProfile {
                let j = Int(random.next() % UInt64(count))
                guard j != i, chosen.insert(j).inserted else { continue }
                pairs.append(Pair(follower: i, followee: j))
                followers[j] += 1
            }
        }
        self.pairs = pairs
        followIds = pairs.map { _ in random.uuid().lowercased }
        followerCounts = followers
        self.followsPerProfile = perProfile
        self.postsPerProfile = max(postsPerProfile, 0)
        postIds = (0..<(count * self.postsPerProfile)).map { _ in random.uuid().lowercased }
    }

    /// Every post: profile `i`'s `k`-th post (1-based) says `Post <k> by user<i+1>.`, written after
    /// every follow, 1 ms apart in profile-major order.
    public var posts: [Post] {
        postIds.indices.map { n in
            let author = n / max(postsPerProfile, 1)
            let at = postCreatedAt(n)
            return Post(
                id: UUID(uuidString: postIds[n])!, authorId: UUID(uuidString: profileIds[author])!,
                content: "Post \(n % postsPerProfile + 1) by user\(author + 1).", createdAtMicroseconds: at,
                updatedAt: UnixMicroseconds.date(at))
        }
    }

    /// Creation time of post `n`, in microseconds.
    public func postCreatedAt(_ n: Int) -> Int64 {
        followCreatedAt(pairs.count) + 1_000_000 + Int64(n) * 1_000
    }

    /// Profile `index` (0-based) as stored: fields, privacy, counters and times.
    public func profile(at index: Int) -> Profile {
        let n = index + 1
        let at = UnixMicroseconds.date(Self.baseMicroseconds + Int64(index) * 1_000_000)
        return Profile(
            id: UUID(uuidString: profileIds[index])!, handle: "user\(n)",
            displayName: index % 10 == 9 ? nil : "User \(n)", bio: index % 4 == 0 ? nil : "Climber number \(n).",
            isPublic: index % 5 != 0, followerCount: followerCounts[index], followingCount: followsPerProfile,
            postCount: postsPerProfile,
            createdAt: at, updatedAt: at)
    }

    /// Creation time of follow `index`, in microseconds.
    public func followCreatedAt(_ index: Int) -> Int64 {
        Self.baseMicroseconds + Int64(profileIds.count) * 1_000_000 + Int64(index)
    }

    /// Every profile, `user1` first.
    public var profiles: [Profile] { profileIds.indices.map(profile(at:)) }

    /// Every follow, active, in creation order.
    public var follows: [Follow] {
        pairs.indices.map { n in
            Follow(
                id: UUID(uuidString: followIds[n])!, followerId: UUID(uuidString: profileIds[pairs[n].follower])!,
                followeeId: UUID(uuidString: profileIds[pairs[n].followee])!, createdAtMicroseconds: followCreatedAt(n))
        }
    }
}
