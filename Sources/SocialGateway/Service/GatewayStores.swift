import SocialDomain

/// The three ports the gateway reads and writes through, whichever store backs them.
public struct GatewayStores: Sendable {
    public var profiles: any ProfileStore
    public var follows: any FollowStore
    public var avatars: any AvatarStore
    public var posts: any PostStore
    public var stories: any StoryStore
    public var storyMedia: any StoryMediaStore
    /// Accounts and sessions (``NoAccounts`` for a store without an identity provider).
    public var accounts: any AccountStore
    /// Store calls so far, by operation (for `/metrics` and for tests that prove batching).
    public var callCounts: @Sendable () -> [String: Int]

    public init(
        profiles: any ProfileStore, follows: any FollowStore, avatars: any AvatarStore, posts: any PostStore,
        stories: any StoryStore, storyMedia: any StoryMediaStore, accounts: any AccountStore = NoAccounts(), callCounts: @escaping @Sendable () -> [String: Int] = { [:] }
    ) {
        self.profiles = profiles
        self.follows = follows
        self.avatars = avatars
        self.posts = posts
        self.stories = stories
        self.storyMedia = storyMedia
        self.accounts = accounts
        self.callCounts = callCounts
    }
}
