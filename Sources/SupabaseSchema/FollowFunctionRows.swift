import Foundation
import SocialDomain

/// The argument of `follow_pages`. Decodable too, for the Supabase fake.
public struct FollowPagesArguments: Codable {
    public struct Item: Codable {
        public var owner: String
        public var kind: String
        public var backward: Bool
        public var cursor_us: Int64?
        public var cursor_id: String?
        public var limit: Int

        public init(_ request: FollowPageRequest) {
            owner = request.list.owner.lowercased
            kind = request.list.kind.rawValue
            backward = request.page.direction == .backward
            cursor_us = request.page.cursor?.createdAtMicroseconds
            cursor_id = request.page.cursor?.followId.lowercased
            limit = request.page.limit
        }
    }
    public var requests: [Item]

    public init(requests: [Item]) { self.requests = requests }
}

/// One row of `follow_pages`: the request it answers, the owner's counter, and an edge (all
/// edge columns null when the list is empty). Encodable too, for the Supabase fake: edge
/// columns as explicit nulls; the two states only in `follow_pages_with_states`'s rows.
public struct FollowPageRow: Codable {
    public var request_index: Int
    public var total_count: Int
    public var follow_id: String?
    public var follower_id: String?
    public var followee_id: String?
    public var follow_created_us: Int64?
    public var profile: ProfileRow?
    public var viewer_follows: Bool?
    public var follows_viewer: Bool?

    public init(
        request_index: Int, total_count: Int, follow_id: String? = nil, follower_id: String? = nil, followee_id: String? = nil,
        follow_created_us: Int64? = nil, profile: ProfileRow? = nil, viewer_follows: Bool? = nil, follows_viewer: Bool? = nil
    ) {
        self.request_index = request_index
        self.total_count = total_count
        self.follow_id = follow_id
        self.follower_id = follower_id
        self.followee_id = followee_id
        self.follow_created_us = follow_created_us
        self.profile = profile
        self.viewer_follows = viewer_follows
        self.follows_viewer = follows_viewer
    }

    public enum CodingKeys: String, CodingKey {
        case request_index, total_count, follow_id, follower_id, followee_id, follow_created_us, profile, viewer_follows, follows_viewer
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(request_index, forKey: .request_index)
        try c.encode(total_count, forKey: .total_count)
        try c.encode(follow_id, forKey: .follow_id)
        try c.encode(follower_id, forKey: .follower_id)
        try c.encode(followee_id, forKey: .followee_id)
        try c.encode(follow_created_us, forKey: .follow_created_us)
        try c.encode(profile, forKey: .profile)
        try c.encodeIfPresent(viewer_follows, forKey: .viewer_follows)
        try c.encodeIfPresent(follows_viewer, forKey: .follows_viewer)
    }

    /// The edge of this row, nil for the row of an empty page; with the caller's follow state
    /// when signed in (an anonymous caller's are false, and not worth priming).
    public func edge(list: FollowList, signedIn: Bool) throws -> FollowEdge? {
        guard let follow_id else { return nil }
        guard let id = UUID(parsing: follow_id), let follower = follower_id.flatMap(UUID.init(parsing:)),
              let followee = followee_id.flatMap(UUID.init(parsing:)), let created = follow_created_us,
              let profile = try profile?.profile()
        else { throw MalformedRow("follow_pages row \(follow_id)") }
        let follow = Follow(id: id, followerId: follower, followeeId: followee, createdAtMicroseconds: created)
        var state: FollowState?
        if signedIn, let viewer_follows, let follows_viewer {
            state = FollowState(profileId: profile.id, viewerIsFollowing: viewer_follows, followsViewer: follows_viewer)
        }
        return FollowEdge(list: list, follow: follow, profile: profile, viewerState: state)
    }

    /// The pages `rows` answer, one per request in request order: each page's edges newest first
    /// (oldest first for a backward page) whatever order the rows came in.
    /// - Throws: ``MalformedRow`` for a row naming no request, or one this code cannot read.
    public static func pages(_ rows: [FollowPageRow], answering requests: [FollowPageRequest], signedIn: Bool) throws -> [FollowPage] {
        try FollowPageRow.assemble(answering: requests, rows: rows.map { row in
            guard requests.indices.contains(row.request_index) else {
                throw MalformedRow("follow_pages request_index \(row.request_index)")
            }
            return (row.request_index, row.total_count, try row.edge(list: requests[row.request_index].list, signedIn: signedIn))
        })
    }

    /// The pages that rows of any wire answer (the JSON above, or the PostgreSQL store's plain
    /// columns), one per request in request order: each page's edges newest first (oldest first
    /// for a backward page) whatever order the rows came in. Each row names a request of
    /// `requests` (the caller checked), that request's total, and its edge (nil for the row of
    /// an empty page).
    public static func assemble(
        answering requests: [FollowPageRequest], rows: [(requestIndex: Int, totalCount: Int, edge: FollowEdge?)]
    ) -> [FollowPage] {
        var fetched = Array(repeating: [FollowEdge](), count: requests.count)
        var totals = Array(repeating: 0, count: requests.count)
        for row in rows {
            totals[row.requestIndex] = row.totalCount
            if let edge = row.edge { fetched[row.requestIndex].append(edge) }
        }
        return requests.indices.map { index in
            let backward = requests[index].page.direction == .backward
            let ordered = fetched[index].sorted { backward ? $0.follow.keyset < $1.follow.keyset : $1.follow.keyset < $0.follow.keyset }
            return FollowPage.assemble(request: requests[index], fetched: ordered, totalCount: totals[index])
        }
    }
}

/// The argument and the rows of `active_follows`. Decodable too, for the Supabase fake.
public struct ActiveFollowsArguments: Codable {
    public struct Pair: Codable {
        public var follower_id: String
        public var followee_id: String

        public init(follower_id: String, followee_id: String) {
            self.follower_id = follower_id
            self.followee_id = followee_id
        }

        public init(_ pair: FollowPair) {
            self.init(follower_id: pair.follower.lowercased, followee_id: pair.followee.lowercased)
        }

        /// - Throws: ``MalformedRow`` for an id that is not a UUID.
        public func pair() throws -> FollowPair {
            guard let follower = UUID(parsing: follower_id), let followee = UUID(parsing: followee_id)
            else { throw MalformedRow("active_follows ids \(follower_id) \(followee_id)") }
            return FollowPair(follower: follower, followee: followee)
        }
    }
    public var pairs: [Pair]

    public init(pairs: [Pair]) { self.pairs = pairs }
}

/// The answer of the three follow functions. Encodable too, for the Supabase fake (a profile
/// the caller cannot see an explicit null).
public struct FollowOutcomeRow: Codable {
    public var is_following: Bool
    public var follower: ProfileRow?
    public var followee: ProfileRow?
    /// Present when the call was about a request (migration 20250301002300): `pending` or `none`.
    public var request_status: String?
    /// Present with `request_status`: whether the request changed.
    public var changed: Bool?

    public init(is_following: Bool, follower: ProfileRow?, followee: ProfileRow?, request_status: String? = nil, changed: Bool? = nil) {
        self.is_following = is_following
        self.follower = follower
        self.followee = followee
        self.request_status = request_status
        self.changed = changed
    }

    public enum CodingKeys: String, CodingKey { case is_following, follower, followee, request_status, changed }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(is_following, forKey: .is_following)
        try c.encode(follower, forKey: .follower)
        try c.encode(followee, forKey: .followee)
        try c.encodeIfPresent(request_status, forKey: .request_status)
        try c.encodeIfPresent(changed, forKey: .changed)
    }
}

extension FollowOutcomeRow {
    /// The domain's outcome. The followee is its card when the domain's rule says so (private,
    /// not the viewer's, not followed: ``ProfileAccess``), as the functions built it.
    public func outcome(viewer: Viewer) throws -> FollowOutcome {
        var followee = try followee?.profile()
        if let profile = followee, profile.access(for: viewer, viewerFollows: is_following) == .card {
            followee = profile.card()
        }
        return FollowOutcome(
            isFollowing: is_following, follower: try follower?.profile(), followee: followee,
            changed: changed ?? true, requestStatus: request_status == "pending" ? .pending : .none)
    }
}
