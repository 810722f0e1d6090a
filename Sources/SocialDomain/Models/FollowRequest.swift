import Foundation

/// Where the viewer's request to follow a profile stands, as they see it. A declined request
/// reads as ``none``: the requester is not told, but cannot ask again for
/// ``FollowRequestRules/askAgainAfterDecline``.
public enum FollowRequestStatus: String, Sendable, Hashable {
    case none, pending
}

/// The rules of follow requests, in one place so every store and the docs agree.
public enum FollowRequestRules {
    /// How long after a decline the same profile may not ask again (7 days). Asking sooner is
    /// `TOO_MANY_REQUESTS` with the seconds left in `retryAfter`.
    public static let askAgainAfterDecline: Int64 = 7 * 24 * 3600

    /// The seconds a requester still has to wait, declined at `declinedAt` (µs), now `now` (µs);
    /// nil when they may ask.
    public static func waitAfterDecline(declinedAt: Int64, now: Int64) -> Int? {
        let left = declinedAt / 1_000_000 + askAgainAfterDecline - now / 1_000_000
        return left > 0 ? Int(left) : nil
    }
}

/// A pending request to follow the viewer's private profile: who asked, and when.
public struct FollowRequest: Sendable, Hashable {
    /// The profile that asked, as the owner sees it.
    public var requester: Profile
    /// The profile asked (the owner).
    public var targetId: UUID
    public var createdAtMicroseconds: Int64

    public init(requester: Profile, targetId: UUID, createdAtMicroseconds: Int64) {
        self.requester = requester
        self.targetId = targetId
        self.createdAtMicroseconds = createdAtMicroseconds
    }

    public var createdAt: Date { UnixMicroseconds.date(createdAtMicroseconds) }
    /// Its place in the owner's newest-first list.
    public var keyset: TimeKeyset { TimeKeyset(createdAtMicroseconds: createdAtMicroseconds, id: requester.id) }
    public var cursor: String { PageCursor.timeline(.followRequests(owner: targetId), keyset).encoded }
}

/// A request the viewer made to follow a private profile, still waiting for its owner's answer
/// (issue 54): what a client shows as "Requested", and cancels with an unfollow.
public struct SentFollowRequest: Sendable, Hashable {
    /// The profile asked, as the viewer sees it (a card: the viewer does not follow it yet).
    public var target: Profile
    /// The profile that asked (the viewer).
    public var requesterId: UUID
    public var createdAtMicroseconds: Int64

    public init(target: Profile, requesterId: UUID, createdAtMicroseconds: Int64) {
        self.target = target
        self.requesterId = requesterId
        self.createdAtMicroseconds = createdAtMicroseconds
    }

    public var createdAt: Date { UnixMicroseconds.date(createdAtMicroseconds) }
    /// Its place in the requester's newest-first list.
    public var keyset: TimeKeyset { TimeKeyset(createdAtMicroseconds: createdAtMicroseconds, id: target.id) }
    public var cursor: String { PageCursor.timeline(.sentFollowRequests(requester: requesterId), keyset).encoded }
}

/// A page of the viewer's own pending requests, newest first; `totalCount` is every one pending.
public struct SentFollowRequestPage: Sendable, Hashable {
    public var requests: [SentFollowRequest]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public var totalCount: Int
    public init(requests: [SentFollowRequest], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int) {
        self.requests = requests
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }
}

/// One page of a newest-first list keyed by (time, profile id): the viewer's pending follow
/// requests, or the profiles they block.
public struct TimePageRequest: Sendable, Hashable {
    /// How many, already validated (1 to the connection's maximum).
    public var limit: Int
    /// Requests older than this one (the `after` cursor's keyset).
    public var after: TimeKeyset?
    public init(limit: Int, after: TimeKeyset? = nil) {
        self.limit = limit
        self.after = after
    }
}

/// A page of pending follow requests, newest first; `totalCount` is every pending request.
public struct FollowRequestPage: Sendable, Hashable {
    public var requests: [FollowRequest]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public var totalCount: Int
    public init(requests: [FollowRequest], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int) {
        self.requests = requests
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }
}

/// What an answer to a follow request did: the requester now follows (approved) or not
/// (declined), with both profiles' fresh counts as the owner sees them.
public struct FollowRequestAnswer: Sendable, Hashable {
    public var approved: Bool
    /// The profile that asked, as the owner sees it.
    public var requester: Profile
    /// The owner's own profile, with its new follower count.
    public var owner: Profile
    /// The follow's time when approved and the store says it (as ``FollowOutcome/at``).
    public var at: Int64?
    public init(approved: Bool, requester: Profile, owner: Profile, at: Int64? = nil) {
        self.approved = approved
        self.requester = requester
        self.owner = owner
        self.at = at
    }
}
