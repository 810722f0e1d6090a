import Foundation

/// What a block or unblock did (issue 40). A block removes the follows and follow requests
/// between the two profiles both ways, in the same transaction; from then on each is hidden from
/// the other everywhere (``ProfileAccess``: no card either), and neither can follow or ask.
/// Blocking is private: the blocked profile is never told, it just finds the blocker NOT_FOUND.
public struct BlockOutcome: Sendable, Hashable {
    /// Whether the viewer blocks the profile after the call.
    public var blocked: Bool
    /// Whether the call changed anything (blocking twice, or unblocking a profile not blocked,
    /// does not).
    public var changed: Bool
    /// The viewer's own profile, with its counts after the follows the block removed.
    public var viewer: Profile
    public init(blocked: Bool, changed: Bool, viewer: Profile) {
        self.blocked = blocked
        self.changed = changed
        self.viewer = viewer
    }
}

/// A profile the viewer blocks, as their own list shows it: its card, and since when.
public struct BlockedProfile: Sendable, Hashable {
    /// The blocked profile's card (the viewer sees nothing else of it).
    public var profile: Profile
    public var ownerId: UUID
    public var blockedAtMicroseconds: Int64
    public init(profile: Profile, ownerId: UUID, blockedAtMicroseconds: Int64) {
        self.profile = profile
        self.ownerId = ownerId
        self.blockedAtMicroseconds = blockedAtMicroseconds
    }

    public var blockedAt: Date { UnixMicroseconds.date(blockedAtMicroseconds) }
    public var keyset: TimeKeyset { TimeKeyset(createdAtMicroseconds: blockedAtMicroseconds, id: profile.id) }
    public var cursor: String { PageCursor.timeline(.blocked(owner: ownerId), keyset).encoded }
}

/// A page of the viewer's blocked profiles, newest block first; `totalCount` is all of them.
public struct BlockedProfilePage: Sendable, Hashable {
    public var blocked: [BlockedProfile]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public var totalCount: Int
    public init(blocked: [BlockedProfile], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int) {
        self.blocked = blocked
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
    }
}
