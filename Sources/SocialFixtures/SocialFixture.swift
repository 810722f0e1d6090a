import Foundation
import SocialDomain

/// Rows that every store can be seeded with identically, as domain values: profiles (their
/// counters counting the follows, posts, likes and comments below), their owner-only fields,
/// active follows, posts, likes and comments, each with its own fixed time.
///
/// The demo data is one (``DemoData/fixture``); tests build others (the store conformance
/// suite's generated graph). Each store loads one its own way (the embedded store and the
/// PostgreSQL test database insert rows, the Supabase fake keeps them), so what a test seeds
/// never depends on the store it runs on.
///
/// ```swift
/// try await embedded.insert(DemoData.fixture)
/// fake.seed(DemoData.fixture)
/// ```
public struct SocialFixture: Sendable {
    public var profiles: [Profile]
    public var ownerDetails: [UUID: ProfileOwnerDetails]
    /// Active follows only.
    public var follows: [Follow]
    public var posts: [Post]
    /// (post, liker).
    public var likes: [(post: UUID, profile: UUID)]
    public var comments: [Comment]
    /// When every like was made (likes' times are not part of any answer).
    public var likedAtMicroseconds: Int64

    public init(
        profiles: [Profile], ownerDetails: [UUID: ProfileOwnerDetails] = [:], follows: [Follow] = [], posts: [Post] = [],
        likes: [(post: UUID, profile: UUID)] = [], comments: [Comment] = [], likedAtMicroseconds: Int64
    ) {
        self.profiles = profiles
        self.ownerDetails = ownerDetails
        self.follows = follows
        self.posts = posts
        self.likes = likes
        self.comments = comments
        self.likedAtMicroseconds = likedAtMicroseconds
    }
}

extension DemoData {
    /// The demo data as one fixture: what every store seeds for the tests and a served demo.
    public static var fixture: SocialFixture {
        SocialFixture(
            profiles: profiles, ownerDetails: ownerDetails, follows: follows, posts: posts, likes: likes, comments: comments,
            likedAtMicroseconds: createdAtMicroseconds + 2 * 86_400_000_000)
    }
}
