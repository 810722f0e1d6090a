import Foundation
import SocialDomain
import SocialFixtures
import SocialGateway

/// A small social graph generated from a seed, that every store is seeded with identically: its
/// rows (profiles, follows, posts, likes, comments, each with a fixed time) as a
/// ``SocialFixture`` loaded at start (``TestStore/Seed/fixture(_:)``), then its follow requests,
/// declines, blocks and stories made through the stores' own ports (``seedThroughPorts(_:)``), as
/// clients would make them.
///
/// It is also the model the store conformance suite computes its expectations from: which
/// follows are active, who asked, who was declined, who blocks whom, and so what each viewer
/// sees by the domain's rules (``facts(_:_:)``, ``access(_:_:)``). Same seed, same graph.
///
/// ```swift
/// let graph = ConformanceGraph(seed: 7, profiles: 16)
/// try await TestStore.run(.postgres, seed: .fixture(graph.fixture)) { store in
///     try await graph.seedThroughPorts(store)
///     ...
/// }
/// ```
public struct ConformanceGraph: Sendable {
    /// Profile ids, in creation order (handle `climber_<i>`).
    public let ids: [UUID]
    /// The rows loaded at start.
    public let fixture: SocialFixture
    /// Pending requests (requester → private target), made in this order.
    public let pending: [FollowPair]
    /// Requests asked then declined, in this order; ``declinedLongAgo`` of them were declined more
    /// than ``FollowRequestRules/askAgainAfterDecline`` ago.
    public let declined: [FollowPair]
    public let declinedLongAgo: Set<FollowPair>
    /// Blocks (blocker → blocked), made in this order. No follow or request is between a blocked
    /// pair, so a block changes nothing else.
    public let blocks: [FollowPair]
    /// Profiles with one story each, made in this order.
    public let storyAuthors: [UUID]

    public let profilesById: [UUID: Profile]
    public let activeFollows: Set<FollowPair>
    public let pendingSet: Set<FollowPair>
    public let blockSet: Set<FollowPair>

    /// The first profile's creation time, 2024-06-01T00:00:00Z; profiles 1 s apart, follows
    /// from 1,000 s on, 1 ms apart, posts from 10,000 s on, 1 s apart, comments after them.
    public static let baseMicroseconds: Int64 = 1_717_200_000_000_000

    /// - Parameters:
    ///   - seed: the generator's seed (``SeededRandom``).
    ///   - profiles: how many profiles (at least 4).
    ///   - followChance: the chance (in percent) that one profile follows another.
    public init(seed: UInt64, profiles count: Int, followChance: UInt64 = 30) {
        let random = SeededRandom(seed: seed)
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        let ids = (0..<count).map { _ in random.uuid() }
        var isPublic = (0..<count).map { _ in chance(55) }
        // Both kinds, whatever the draw.
        isPublic[0] = true
        isPublic[1] = false
        // Blocks first, so that nothing else is drawn between a blocked pair.
        var blocks: [FollowPair] = []
        var blockedPairs = Set<Set<UUID>>()
        for a in ids {
            for b in ids where a != b && !blockedPairs.contains([a, b]) && chance(4) {
                blocks.append(FollowPair(follower: a, followee: b))
                blockedPairs.insert([a, b])
            }
        }
        var follows: [Follow] = []
        for a in ids {
            for b in ids where a != b && !blockedPairs.contains([a, b]) && chance(followChance) {
                follows.append(Follow(
                    id: random.uuid(), followerId: a, followeeId: b,
                    createdAtMicroseconds: Self.baseMicroseconds + 1_000_000_000 + Int64(follows.count) * 1_000))
            }
        }
        let active = Set(follows.map { FollowPair(follower: $0.followerId, followee: $0.followeeId) })
        let publicById = Dictionary(uniqueKeysWithValues: zip(ids, isPublic))
        var pending: [FollowPair] = []
        var declined: [FollowPair] = []
        var declinedLongAgo = Set<FollowPair>()
        for a in ids {
            for b in ids where a != b && publicById[b] == false && !blockedPairs.contains([a, b]) {
                let pair = FollowPair(follower: a, followee: b)
                guard !active.contains(pair) else { continue }
                if chance(25) {
                    pending.append(pair)
                } else if chance(20) {
                    declined.append(pair)
                    if chance(50) { declinedLongAgo.insert(pair) }
                }
            }
        }
        var posts: [Post] = []
        var likes: [(post: UUID, profile: UUID)] = []
        var comments: [Comment] = []
        for author in ids {
            for _ in 0..<Int(random.next() % 3) {
                let at = Self.baseMicroseconds + 10_000_000_000 + Int64(posts.count) * 1_000_000
                posts.append(Post(
                    id: random.uuid(), authorId: author, content: "Post \(posts.count + 1) by climber",
                    imageURLs: posts.count % 3 == 0 ? ["https://img.example.test/\(posts.count).jpg"] : [],
                    createdAtMicroseconds: at, updatedAt: UnixMicroseconds.date(at)))
            }
        }
        for index in posts.indices {
            let post = posts[index]
            for profile in ids where chance(20) { likes.append((post.id, profile)) }
            for profile in ids where chance(12) {
                comments.append(Comment(
                    id: random.uuid(), postId: post.id, authorId: profile, content: "Comment \(comments.count + 1)",
                    createdAtMicroseconds: post.createdAtMicroseconds + 100_000_000 + Int64(comments.count) * 1_000))
            }
            posts[index].likeCount = likes.filter { $0.post == post.id }.count
            posts[index].commentCount = comments.filter { $0.postId == post.id }.count
        }
        let profiles = ids.enumerated().map { i, id in
            let at = UnixMicroseconds.date(Self.baseMicroseconds + Int64(i) * 1_000_000)
            return Profile(
                id: id, handle: "climber_\(i + 1)", displayName: i % 3 == 2 ? nil : "Rock \(["Ada", "Bea", "Cy"][i % 3]) \(i + 1)",
                bio: i % 2 == 0 ? "Bio of climber \(i + 1)" : nil, homeGym: i % 4 == 0 ? "Gym \(i % 5)" : nil,
                climbingSince: i % 5 == 0 ? CalendarDay(year: 2010 + i % 10, month: 1 + i % 12, day: 1 + i % 28) : nil,
                favoriteStyle: i % 3 == 0 ? "bouldering" : nil, isPublic: isPublic[i],
                followerCount: follows.filter { $0.followeeId == id }.count,
                followingCount: follows.filter { $0.followerId == id }.count, sendCount: i * 7 % 11,
                postCount: posts.filter { $0.authorId == id }.count, createdAt: at, updatedAt: at)
        }
        self.ids = ids
        fixture = SocialFixture(
            profiles: profiles, follows: follows, posts: posts, likes: likes, comments: comments,
            likedAtMicroseconds: Self.baseMicroseconds + 20_000_000_000)
        self.pending = pending
        self.declined = declined
        self.declinedLongAgo = declinedLongAgo
        self.blocks = blocks
        storyAuthors = ids.enumerated().filter { $0.offset % 3 == 1 }.map(\.element)
        profilesById = Dictionary(uniqueKeysWithValues: profiles.map { ($0.id, $0) })
        activeFollows = active
        pendingSet = Set(pending)
        blockSet = Set(blocks)
    }

    // MARK: seeding

    /// Makes the graph's requests, declines, blocks and stories through `store`'s ports, each as
    /// its actor (the store was started with ``fixture``), and ages the old declines where the
    /// store can (``TestStore/ageDeclines(_:)``). Returns the stories made, by author.
    @discardableResult
    public func seedThroughPorts(_ store: TestStore) async throws -> [UUID: Story] {
        try await seedThroughPorts(store.stores, viewer: store.viewer) { _ = try await store.ageDeclines($0) }
    }

    /// The same through any gateway's ports, `viewer` making each actor's viewer and `ageDeclines`
    /// moving declines back.
    @discardableResult
    public func seedThroughPorts(
        _ stores: GatewayStores, viewer: (UUID) -> Viewer, ageDeclines: ([FollowPair]) async throws -> Void
    ) async throws -> [UUID: Story] {
        let follows = stores.follows
        for pair in pending + declined {
            let outcome = try await follows.changeFollow(FollowChange(pair: pair, action: .follow), viewer: viewer(pair.follower))
            guard outcome.requestStatus == .pending else { throw GraphSeedError("\(pair) did not make a request") }
        }
        for pair in declined {
            _ = try await follows.answerFollowRequest(from: pair.follower, approve: false, viewer: viewer(pair.followee))
        }
        if !declinedLongAgo.isEmpty { try await ageDeclines(declined.filter(declinedLongAgo.contains)) }
        for pair in blocks {
            _ = try await follows.changeBlock(of: pair.followee, block: true, viewer: viewer(pair.follower))
        }
        var stories: [UUID: Story] = [:]
        for (n, author) in storyAuthors.enumerated() {
            let path = MediaPath(kind: .story, owner: author, unixTime: 1_740_000_000 + Int64(n), suffix: "c0ffee0\(n % 10)", format: .png)
            let url = try await stores.media.putMedia(DemoData.storyImage, at: path, viewer: viewer(author))
            stories[author] = try await stores.stories.createStory(mediaURL: url, path: path, viewer: viewer(author))
        }
        return stories
    }

    // MARK: the model

    /// Whether `a` actively follows `b`.
    public func follows(_ a: UUID, _ b: UUID) -> Bool { activeFollows.contains(FollowPair(follower: a, followee: b)) }
    /// Whether either blocks the other.
    public func blocked(_ a: UUID, _ b: UUID) -> Bool {
        blockSet.contains(FollowPair(follower: a, followee: b)) || blockSet.contains(FollowPair(follower: b, followee: a))
    }
    /// Whether `a` has a pending request to `b`.
    public func asked(_ a: UUID, _ b: UUID) -> Bool { pendingSet.contains(FollowPair(follower: a, followee: b)) }

    /// The facts of the domain's rule for `viewer` and the profile `id`.
    public func facts(_ viewer: Viewer, _ id: UUID) -> VisibilityFacts {
        let me = viewer.userId
        return VisibilityFacts(
            viewer: viewer, profileId: id, isPublic: profilesById[id]?.isPublic ?? false,
            viewerFollows: me.map { follows($0, id) } ?? false, blocked: me.map { blocked($0, id) } ?? false)
    }

    /// How much of the profile `id` the viewer sees, by ``SocialRules``.
    public func access(_ viewer: Viewer, _ id: UUID) -> ProfileAccess? { SocialRules.access(facts(viewer, id)) }

    /// Whether the viewer sees the profile `id` whole.
    public func sees(_ viewer: Viewer, _ id: UUID) -> Bool { SocialRules.sees(access(viewer, id)) }

    /// The profile `id` as the viewer should read it: whole, its card, or nil.
    public func profile(_ id: UUID, as viewer: Viewer) -> Profile? {
        guard let profile = profilesById[id], let access = access(viewer, id) else { return nil }
        return access == .full ? profile : profile.card()
    }

    /// Every viewer: anonymous, then each profile's owner, as `store` accepts them.
    public func viewers(_ store: TestStore) -> [Viewer] { [.anonymous] + ids.map(store.viewer) }

    // MARK: relations (RULES.md's list, which the suite must cover)

    /// A viewer's relation to a profile, in the words of the decision (issue 52).
    public enum Relation: String, Sendable, CaseIterable {
        case anonymous, owner, stranger, followedByProfile, requester, declinedRecently, declinedLongAgo, approvedFollower,
             mutual, viewerBlocks, profileBlocksViewer
    }

    /// The relation of `viewer` to the profile `id` (the first that applies, in the order above
    /// reversed: blocks first, then follows, requests, declines).
    public func relation(_ viewer: Viewer, _ id: UUID) -> Relation {
        guard let me = viewer.userId else { return .anonymous }
        if me == id { return .owner }
        if blockSet.contains(FollowPair(follower: me, followee: id)) { return .viewerBlocks }
        if blockSet.contains(FollowPair(follower: id, followee: me)) { return .profileBlocksViewer }
        switch (follows(me, id), follows(id, me)) {
        case (true, true): return .mutual
        case (true, false): return .approvedFollower
        default: break
        }
        let pair = FollowPair(follower: me, followee: id)
        if pendingSet.contains(pair) { return .requester }
        if declined.contains(pair) { return declinedLongAgo.contains(pair) ? .declinedLongAgo : .declinedRecently }
        return follows(id, me) ? .followedByProfile : .stranger
    }

    /// Which relations occur only toward private profiles (a request to a public profile is a
    /// follow at once).
    public static let privateOnly: Set<Relation> = [.requester, .declinedRecently, .declinedLongAgo]
}

/// The graph could not be made as generated (a store refused a step).
public struct GraphSeedError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
