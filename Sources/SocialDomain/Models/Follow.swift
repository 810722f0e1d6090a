import Foundation

/// One follow relationship, soft-deleted on unfollow and restored on follow-again.
///
/// Times are kept in integer microseconds so that keyset cursors compare exactly;
/// ``createdAt`` and ``deletedAt`` expose them as `Date`.
public struct Follow: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var followerId: UUID
    public var followeeId: UUID
    public var createdAtMicroseconds: Int64
    public var deletedAtMicroseconds: Int64?

    public init(
        id: UUID, followerId: UUID, followeeId: UUID,
        createdAtMicroseconds: Int64, deletedAtMicroseconds: Int64? = nil
    ) {
        self.id = id
        self.followerId = followerId
        self.followeeId = followeeId
        self.createdAtMicroseconds = createdAtMicroseconds
        self.deletedAtMicroseconds = deletedAtMicroseconds
    }

    public var createdAt: Date { UnixMicroseconds.date(createdAtMicroseconds) }
    public var deletedAt: Date? { deletedAtMicroseconds.map(UnixMicroseconds.date) }
    /// False once unfollowed (soft-deleted).
    public var isActive: Bool { deletedAtMicroseconds == nil }

    /// Where this follow sits in a newest-first list.
    public var keyset: FollowKeyset { FollowKeyset(createdAtMicroseconds: createdAtMicroseconds, followId: id) }
}

/// An ordered (follower, followee) pair: "does `follower` follow `followee`?".
public struct FollowPair: Sendable, Hashable {
    public var follower: UUID
    public var followee: UUID
    public init(follower: UUID, followee: UUID) {
        self.follower = follower
        self.followee = followee
    }
}

/// Which way a follow mutation goes. `toggle` flips the current state atomically in the store.
public enum FollowAction: String, Sendable, Hashable {
    case follow, unfollow, toggle
}

/// A follow mutation as the store receives it, already validated (signed in, not self).
public struct FollowChange: Sendable, Hashable {
    public var pair: FollowPair
    public var action: FollowAction
    public init(pair: FollowPair, action: FollowAction) {
        self.pair = pair
        self.action = action
    }
}

/// The new state after a follow mutation, plus both profiles with their fresh counters
/// (nil when the viewer may not see one), so a payload needs no second round trip.
public struct FollowOutcome: Sendable, Hashable {
    public var isFollowing: Bool
    /// The viewer's profile, with its new counts.
    public var follower: Profile?
    /// The profile followed or unfollowed; nil when it is hidden from the viewer (an unfollow of a
    /// profile that turned private).
    public var followee: Profile?
    /// Whether the call changed the follow (a follow of a profile already followed, or an unfollow
    /// of one not followed, changes nothing): only a change is an ``Activity``.
    public var changed: Bool
    /// The viewer's request to follow the (private) followee after the call: `pending` when a
    /// follow of a private profile made or kept a request instead of a follow.
    public var requestStatus: FollowRequestStatus
    /// The follow's time (its `updated_at`, microseconds since 1970) when the call made one and
    /// the store says it: the time of its ``Activity`` and stored notification (issue 54).
    public var at: Int64?
    public init(
        isFollowing: Bool, follower: Profile?, followee: Profile?, changed: Bool = true,
        requestStatus: FollowRequestStatus = .none, at: Int64? = nil
    ) {
        self.isFollowing = isFollowing
        self.follower = follower
        self.followee = followee
        self.changed = changed
        self.requestStatus = requestStatus
        self.at = at
    }
}
