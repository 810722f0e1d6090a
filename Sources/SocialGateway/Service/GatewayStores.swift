import SocialDomain

/// The three ports the gateway reads and writes through, whichever store backs them.
public struct GatewayStores: Sendable {
    public var profiles: any ProfileStore
    public var follows: any FollowStore
    public var avatars: any AvatarStore
    public var posts: any PostStore
    public var stories: any StoryStore
    public var storyMedia: any StoryMediaStore
    /// Store calls so far, by operation (for `/metrics` and for tests that prove batching).
    public var callCounts: @Sendable () -> [String: Int]

    public init(
        profiles: any ProfileStore, follows: any FollowStore, avatars: any AvatarStore, posts: any PostStore,
        stories: any StoryStore, storyMedia: any StoryMediaStore, callCounts: @escaping @Sendable () -> [String: Int] = { [:] }
    ) {
        self.profiles = profiles
        self.follows = follows
        self.avatars = avatars
        self.posts = posts
        self.stories = stories
        self.storyMedia = storyMedia
        self.callCounts = callCounts
    }
}
