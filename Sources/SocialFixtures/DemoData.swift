import Foundation
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
/// ``profiles`` and ``follows`` are the complete data as domain values, so every store that seeds
/// demo data (the embedded store) and every test double of one (the Supabase fake) holds exactly
/// the same rows and the same assertions hold on all of them: the values live here, in no store.
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

    /// A 1x1 PNG: the demo stories' picture.
    public static let storyImage = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ])
}
