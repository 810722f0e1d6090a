/// One page of one follow list, as asked of ``FollowStore/followPages(_:viewer:)``.
public struct FollowPageRequest: Sendable, Hashable {
    public var list: FollowList
    public var page: PageRequest
    public init(list: FollowList, page: PageRequest = PageRequest()) {
        self.list = list
        self.page = page
    }
}

/// A follow plus the profile on the other end (the follower for `followers`, the followee for
/// `following`), with its cursor.
public struct FollowEdge: Sendable, Hashable {
    public var follow: Follow
    public var profile: Profile
    public var cursor: String
    /// The viewer's relation to ``profile``, read with the page when the viewer is signed in
    /// (nil otherwise): a query level's `viewerIsFollowing` then costs no round trip of its own.
    public var viewerState: FollowState?

    public init(list: FollowList, follow: Follow, profile: Profile, viewerState: FollowState? = nil) {
        self.init(follow: follow, profile: profile, cursor: PageCursor.follow(list, follow.keyset).encoded, viewerState: viewerState)
    }

    /// An edge whose cursor was encoded before (`PageCursor.follow(list, follow.keyset).encoded`):
    /// a list kept in memory encodes each follow's cursor once for every page and viewer.
    public init(follow: Follow, profile: Profile, cursor: String, viewerState: FollowState? = nil) {
        self.follow = follow
        self.profile = profile.listed(with: viewerState)
        self.cursor = cursor
        self.viewerState = viewerState
    }
}

/// A page of a follow list, newest follow first, with Relay's page info.
///
/// `totalCount` is the owner's stored counter (follower or following count), read in the same
/// statement, when the viewer sees the owner whole, and 0 otherwise
/// (``SocialRules/listTotal(storedCount:access:)``); edges whose profile the viewer may not see
/// are left out, so it can exceed the number of visible edges.
public struct FollowPage: Sendable, Hashable {
    public var list: FollowList
    public var edges: [FollowEdge]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public var totalCount: Int

    public init(list: FollowList, edges: [FollowEdge], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int) {
        self.list = list
        self.edges = edges
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }

    public var startCursor: String? { edges.first?.cursor }
    public var endCursor: String? { edges.last?.cursor }

    /// Builds a page from `limit + 1` rows fetched in the request's direction (newest first for
    /// forward, oldest first for backward), the recipe both stores share.
    public static func assemble(
        request: FollowPageRequest, fetched: [FollowEdge], totalCount: Int
    ) -> FollowPage {
        var (edges, more) = request.page.trim(fetched)
        switch request.page.direction {
        case .forward:
            return FollowPage(list: request.list, edges: edges, hasNextPage: more,
                              hasPreviousPage: request.page.cursor != nil, totalCount: totalCount)
        case .backward:
            edges.reverse()
            return FollowPage(list: request.list, edges: edges, hasNextPage: request.page.cursor != nil,
                              hasPreviousPage: more, totalCount: totalCount)
        }
    }
}
