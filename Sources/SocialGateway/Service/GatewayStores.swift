import SocialDomain

/// The ports the gateway reads and writes through, whichever store backs them.
public struct GatewayStores: Sendable {
    public var profiles: any ProfileStore
    public var follows: any FollowStore
    public var posts: any PostStore
    public var stories: any StoryStore
    /// Uploaded files of every kind (avatars, story files).
    public var media: any MediaStore
    /// Accounts and sessions (``NoAccounts`` for a store without an identity provider).
    public var accounts: any AccountStore
    /// Store calls so far, by operation (for `/metrics` and for tests that prove batching).
    public var callCounts: @Sendable () -> [String: Int]

    public init(
        profiles: any ProfileStore, follows: any FollowStore, posts: any PostStore, stories: any StoryStore,
        media: any MediaStore, accounts: any AccountStore = NoAccounts(),
        callCounts: @escaping @Sendable () -> [String: Int] = { [:] }
    ) {
        self.profiles = profiles
        self.follows = follows
        self.posts = posts
        self.stories = stories
        self.media = media
        self.accounts = accounts
        self.callCounts = callCounts
    }
}
