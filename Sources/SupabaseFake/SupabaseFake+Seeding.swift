import Foundation
import SocialDomain
import SocialFixtures

/// Filling the fake with data and reading it back.
///
/// The demo users and the load-test graph come from `SocialFixtures` (``DemoData``,
/// ``LoadTestGraph``), as the embedded store's do, so both hold the same rows and a test's
/// assertions hold on either; the fake depends on no store for them.
extension SupabaseFake {
    /// Adds (or replaces) a profile as it is, counters included.
    public func addProfile(_ profile: Profile) {
        lock.withLock { profilesById[profile.id] = profile }
    }

    /// Adds a follow and updates both counters, as the trigger would; returns its id.
    @discardableResult
    public func addFollow(_ follower: UUID, _ followee: UUID, createdAtMicroseconds: Int64, id: UUID = UUID()) -> UUID {
        lock.withLock {
            appendFollow(FakeFollow(id: id, follower: follower, followee: followee, createdAtMicroseconds: createdAtMicroseconds))
            profilesById[follower]?.followingCount += 1
            profilesById[followee]?.followerCount += 1
        }
        return id
    }

    /// Adds profiles whose counters already count `follows`, then the follows as they are
    /// (bulk loads: no counter updates).
    public func add(profiles: [Profile], follows newFollows: [Follow]) {
        lock.withLock {
            for profile in profiles { profilesById[profile.id] = profile }
            for follow in newFollows {
                appendFollow(FakeFollow(
                    id: follow.id, follower: follow.followerId, followee: follow.followeeId,
                    createdAtMicroseconds: follow.createdAtMicroseconds, deletedAtMicroseconds: follow.deletedAtMicroseconds))
            }
        }
    }

    /// The demo data (``DemoData``), as the embedded store seeds it on first start: alice_wonder, bob_builder and carol_creator with
    /// the same ids, fields, times and counters, following each other with the same follow ids.
    public func seedDemoData() {
        add(profiles: DemoData.profiles, follows: DemoData.follows)
        lock.withLock { ownerDetailsById.merge(DemoData.ownerDetails) { _, new in new } }
        add(posts: DemoData.posts, likes: DemoData.likes, comments: DemoData.comments)
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
    public func add(posts newPosts: [Post], likes: [(post: UUID, profile: UUID)], comments newComments: [Comment]) {
        lock.withLock {
            for post in newPosts {
                posts[post.id] = FakePost(
                    id: post.id, author: post.authorId, content: post.content, imageURLs: post.imageURLs,
                    commentCount: newComments.filter { $0.postId == post.id }.count,
                    createdAtMicroseconds: post.createdAtMicroseconds, updatedAtMicroseconds: UnixMicroseconds.from(post.updatedAt))
                postsByAuthor[post.authorId, default: []].append(post.id)
            }
            for like in likes { posts[like.post]?.likes.insert(like.profile) }
            for comment in newComments {
                comments[comment.id] = FakeComment(
                    id: comment.id, post: comment.postId, author: comment.authorId, content: comment.content,
                    createdAtMicroseconds: comment.createdAtMicroseconds)
                commentsByPost[comment.postId, default: []].append(comment.id)
            }
        }
    }

    /// Sets a profile's owner-only fields as they are, as the service role can.
    public func setOwnerDetails(_ details: ProfileOwnerDetails, for id: UUID) {
        lock.withLock { ownerDetailsById[id] = details }
    }

    /// A profile's owner-only fields as stored (empty when none were set).
    public func ownerDetails(_ id: UUID) -> ProfileOwnerDetails {
        lock.withLock { ownerDetailsById[id] ?? ProfileOwnerDetails() }
    }

    /// The ``LoadTestGraph`` of these arguments, the graph `EmbeddedStore.seed(profiles:followsPerProfile:randomSeed:)` inserts.
    public func seed(profiles count: Int, followsPerProfile: Int, randomSeed: UInt64 = 0x5EED) {
        let graph = LoadTestGraph(profiles: count, followsPerProfile: followsPerProfile, randomSeed: randomSeed)
        add(profiles: graph.profiles, follows: graph.follows)
    }

    /// A profile as stored, whatever its visibility.
    public func profile(_ id: UUID) -> Profile? { lock.withLock { profilesById[id] } }

    /// An object of the avatars bucket by its path inside the bucket (`<uid>/<file>`).
    public func object(_ path: String) -> (data: Data, contentType: String)? { lock.withLock { objects[path] } }

    /// Every stored object's key: an avatar's path as is, a story file's as `stories/<path>`.
    public func objectKeys() -> [String] { lock.withLock { Array(objects.keys) } }

    /// Puts a JPEG object into the avatars bucket directly.
    public func putObject(_ path: String, _ data: Data) { lock.withLock { objects[path] = (data, "image/jpeg") } }
}
