import Foundation

/// The follow graph as it is, for every viewer at once: nothing filtered by a viewer.
///
/// Why a port apart from the viewer-shaped reads: the gateway keeps profiles and follow lists in
/// memory once for all viewers (`GraphMemory`, issue 53) and applies the domain's rule
/// (``ProfileAccess``, ``SocialRules``) to them per request; that needs the rows every viewer's
/// answer is drawn from, which no viewer-shaped read returns. A store implements it only where
/// it may read past its own visibility rule: the embedded store always, PostgreSQL as a role
/// that bypasses row-level security, Supabase only with a service-role key the operator gave.
/// Without it, every signed-in read goes to the store as that viewer, as before.
///
/// ```swift
/// let lists = try await store.followListSnapshots([FollowList(.followers, of: bob)], limit: 64)
/// let facts = try await store.viewerFacts(alice, limit: 5_000)
/// ```
public protocol GraphSnapshotStore: Sendable {
    /// Every profile among `ids` that exists, private ones included, with all their public
    /// fields (never the owner-only details) and access `.full`: the caller decides who sees it.
    func snapshotProfiles(ids: [UUID]) async throws -> [UUID: Profile]

    /// ``snapshotProfiles(ids:)`` by lower-cased handle (``BatchGetProfiles/handleKey(_:)``).
    func snapshotProfiles(handles: [String]) async throws -> [String: Profile]

    /// The newest `limit` active follows of each list, newest first (created_at, id descending),
    /// whatever the visibility of the profiles on their other ends, with those profiles; in one
    /// round trip for all lists.
    func followListSnapshots(_ lists: [FollowList], limit: Int) async throws -> [FollowList: FollowListSnapshot]

    /// What a viewer's view of every profile depends on: whom they follow, who follows them,
    /// blocks either way, their pending requests. Nil when the viewer follows, or is followed by,
    /// more than `limit` profiles (the caller then reads as that viewer instead).
    func viewerFacts(_ viewer: UUID, limit: Int) async throws -> ViewerFacts?
}

/// The start of one follow list, unfiltered (``GraphSnapshotStore/followListSnapshots(_:limit:)``).
public struct FollowListSnapshot: Sendable, Hashable {
    public var list: FollowList
    /// Active follows, newest first.
    public var follows: [Follow]
    /// The profile on the other end of each follow (the follower of a `followers` list, the
    /// followee of a `following` list), by id.
    public var profiles: [UUID: Profile]
    /// True when ``follows`` is the whole list, not only its start.
    public var isComplete: Bool

    public init(list: FollowList, follows: [Follow], profiles: [UUID: Profile], isComplete: Bool) {
        self.list = list
        self.follows = follows
        self.profiles = profiles
        self.isComplete = isComplete
    }

    /// The id on the other end of `follow` in this list.
    public func otherEnd(of follow: Follow) -> UUID {
        list.kind == .followers ? follow.followerId : follow.followeeId
    }
}

/// The facts about one signed-in viewer that decide what every profile shows them
/// (``GraphSnapshotStore/viewerFacts(_:limit:)``): with a profile's own record, enough to apply
/// ``ProfileAccess`` and the edge rule without another read.
public struct ViewerFacts: Sendable, Hashable {
    public var viewer: UUID
    /// Profiles the viewer actively follows.
    public var follows: Set<UUID>
    /// Profiles that actively follow the viewer.
    public var followers: Set<UUID>
    /// Profiles the viewer blocks or is blocked by.
    public var blocks: Set<UUID>
    /// Private profiles the viewer has asked to follow, still unanswered.
    public var pendingRequests: Set<UUID>

    public init(viewer: UUID, follows: Set<UUID>, followers: Set<UUID>, blocks: Set<UUID>, pendingRequests: Set<UUID>) {
        self.viewer = viewer
        self.follows = follows
        self.followers = followers
        self.blocks = blocks
        self.pendingRequests = pendingRequests
    }
}
