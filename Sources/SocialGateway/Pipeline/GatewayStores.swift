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
    /// Two-hop reads of the follow graph (followed-by, suggestions); ``NoSocialGraph`` when a
    /// backend has none (its fields then answer BACKEND_UNAVAILABLE).
    public var socialGraph: any SocialGraphStore
    /// A viewer's relation to a profile in one read, when the backend has it: then signed-in
    /// viewers with the same relation share a card's answer (``GatewayService``'s shared
    /// answers); without it every signed-in answer stays per viewer.
    public var relations: (any ViewerRelationStore)?
    /// The graph unfiltered, when the backend may read it so (``GraphMemory`` keeps it for every
    /// viewer and applies the domain's rule per request); without it every signed-in read goes to
    /// the store as its viewer.
    public var snapshots: (any GraphSnapshotStore)?
    /// The viewer's stored notifications (issue 54): the posts store's when it keeps them (every
    /// store here does), else ``NoNotifications`` (BACKEND_UNAVAILABLE).
    public var notifications: any NotificationStore
    /// Store calls so far, by operation (for `/metrics` and for tests that prove batching).
    public var callCounts: @Sendable () -> [String: Int]

    public init(
        profiles: any ProfileStore, follows: any FollowStore, posts: any PostStore, stories: any StoryStore,
        media: any MediaStore, accounts: any AccountStore = NoAccounts(),
        socialGraph: any SocialGraphStore = NoSocialGraph(), relations: (any ViewerRelationStore)? = nil,
        snapshots: (any GraphSnapshotStore)? = nil, notifications: (any NotificationStore)? = nil,
        callCounts: @escaping @Sendable () -> [String: Int] = { [:] }
    ) {
        self.notifications = notifications ?? (posts as? any NotificationStore) ?? NoNotifications()
        self.profiles = profiles
        self.follows = follows
        self.posts = posts
        self.stories = stories
        self.media = media
        self.accounts = accounts
        self.socialGraph = socialGraph
        self.relations = relations
        self.snapshots = snapshots
        self.callCounts = callCounts
    }
}

/// The social graph of a backend that has none: every read is BACKEND_UNAVAILABLE, never a
/// silently empty list.
public struct NoSocialGraph: SocialGraphStore {
    public init() {}
    public func followedByViewerFollowing(_ requests: [FollowedByRequest], viewer: Viewer) async throws -> [ProfileListPage] {
        throw DomainError.backendUnavailable
    }
    public func suggestedProfiles(limit: Int, viewer: Viewer) async throws -> ProfileListPage {
        throw DomainError.backendUnavailable
    }
}
