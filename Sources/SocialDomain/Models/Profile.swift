import Foundation

/// A climber's public face: what `Query.profile` returns.
///
/// `followerCount`/`followingCount` are the stored counters (a connection's `totalCount`), kept
/// in the same transaction as the follow they count; never computed by counting rows.
public struct Profile: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var handle: String
    public var displayName: String?
    public var bio: String?
    public var avatarURL: String?
    public var homeGym: String?
    public var climbingSince: CalendarDay?
    public var favoriteStyle: String?
    public var isPublic: Bool
    public var followerCount: Int
    public var followingCount: Int
    /// How many sends (climbs completed) the climber has logged: a stored counter that the
    /// climbing log keeps (seed 000 `sendCount`); read-only through the gateway.
    public var sendCount: Int
    /// How many posts the profile has (a stored counter, kept with each post written or deleted).
    public var postCount: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID, handle: String, displayName: String? = nil, bio: String? = nil,
        avatarURL: String? = nil, homeGym: String? = nil, climbingSince: CalendarDay? = nil,
        favoriteStyle: String? = nil, isPublic: Bool = true, followerCount: Int = 0,
        followingCount: Int = 0, sendCount: Int = 0, postCount: Int = 0, createdAt: Date, updatedAt: Date
    ) {
        self.postCount = postCount
        self.id = id
        self.handle = handle
        self.displayName = displayName
        self.bio = bio
        self.avatarURL = avatarURL
        self.homeGym = homeGym
        self.climbingSince = climbingSince
        self.favoriteStyle = favoriteStyle
        self.isPublic = isPublic
        self.followerCount = followerCount
        self.followingCount = followingCount
        self.sendCount = sendCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The visibility rule both stores honour: private profiles are visible only to their owner.
    public func isVisible(to viewer: Viewer) -> Bool {
        isPublic || viewer.userId == id
    }
}
