import Foundation

/// One page of a post's likers (issue 54: "who liked a post"), newest like first.
public struct LikerPageRequest: Sendable, Hashable {
    public var post: UUID
    /// How many, already validated (``PageSize/lists``).
    public var limit: Int
    /// Likes older than this one (the `after` cursor's keyset: time liked, liker).
    public var after: TimeKeyset?
    public init(post: UUID, limit: Int, after: TimeKeyset? = nil) {
        self.post = post
        self.limit = limit
        self.after = after
    }
}

/// A profile that likes a post, as the viewer sees it (whole: a liker is listed only when the
/// viewer sees it, ``SocialRules/showsEdge(_:_:)``), with when it liked and its cursor.
public struct LikerEdge: Sendable, Hashable {
    public var profile: Profile
    public var postId: UUID
    public var likedAtMicroseconds: Int64
    public init(profile: Profile, postId: UUID, likedAtMicroseconds: Int64) {
        self.profile = profile
        self.postId = postId
        self.likedAtMicroseconds = likedAtMicroseconds
    }

    public var likedAt: Date { UnixMicroseconds.date(likedAtMicroseconds) }
    /// Its place in the post's newest-first list.
    public var keyset: TimeKeyset { TimeKeyset(createdAtMicroseconds: likedAtMicroseconds, id: profile.id) }
    public var cursor: String { PageCursor.timeline(.likers(post: postId), keyset).encoded }
}

/// A page of a post's likers, newest like first. `totalCount` is the post's stored `likeCount`
/// (every like, those by profiles the viewer does not see included: hidden rows show only as a
/// number), 0 when the viewer does not see the post.
public struct LikerPage: Sendable, Hashable {
    public var post: UUID
    public var edges: [LikerEdge]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public var totalCount: Int
    public init(post: UUID, edges: [LikerEdge], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int) {
        self.post = post
        self.edges = edges
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }

    /// Builds a page from up to `limit + 1` likers read after the request's cursor, whatever
    /// order they came in.
    public static func assemble(request: LikerPageRequest, fetched: [LikerEdge], totalCount: Int) -> LikerPage {
        let ordered = fetched.sorted { $1.keyset < $0.keyset }
        return LikerPage(
            post: request.post, edges: Array(ordered.prefix(request.limit)), hasNextPage: ordered.count > request.limit,
            hasPreviousPage: request.after != nil, totalCount: totalCount)
    }
}
