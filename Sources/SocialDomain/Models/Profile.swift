import Foundation

/// A climber's public face: what `Query.profile` returns.
///
/// `followerCount`/`followingCount` are the stored counters (a connection's `totalCount`), kept
/// in the same transaction as the follow they count; never computed by counting rows.
///
/// A value type whose fields live behind one immutable reference (``Storage``), replaced whole
/// when a field is set. Why: a profile is copied many times on its way to the client (into its
/// follow edge, its page, each resolver's parent), and a copy of fifteen fields retained each of
/// its strings; now it retains one reference. It also fits in an `any Sendable` without a box
/// of its own, which is how the GraphQL engine passes parents: a follower graph's 550 profiles
/// were each copied out of such a box once per field. Equality and hashing are by value.
public struct Profile: Sendable, Hashable, Identifiable {
    /// The stored fields, compared and hashed as a whole.
    struct Fields: Sendable, Hashable {
        var id: UUID
        var handle: String
        var displayName: String?
        var bio: String?
        var avatarURL: String?
        var homeGym: String?
        var climbingSince: CalendarDay?
        var favoriteStyle: String?
        var isPublic: Bool
        var followerCount: Int
        var followingCount: Int
        var sendCount: Int
        var postCount: Int
        var createdAt: Date
        var updatedAt: Date
        var access: ProfileAccess = .full
    }

    /// Immutable, so sharing it between copies and threads needs no care: a setter makes a new one.
    final class Storage: Sendable {
        let fields: Fields
        /// The viewer's follow state with this profile, when the read that listed it brought it
        /// (``FollowEdge``): not part of the value (equality and hashing ignore it).
        let viewerState: FollowState?
        init(_ fields: Fields, viewerState: FollowState? = nil) {
            self.fields = fields
            self.viewerState = viewerState
        }
    }

    private var storage: Storage

    /// Sets one field: a new storage, so other copies keep what they had.
    private mutating func edit(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    public var id: UUID {
        get { storage.fields.id }
        set { edit { $0.id = newValue } }
    }
    public var handle: String {
        get { storage.fields.handle }
        set { edit { $0.handle = newValue } }
    }
    public var displayName: String? {
        get { storage.fields.displayName }
        set { edit { $0.displayName = newValue } }
    }
    public var bio: String? {
        get { storage.fields.bio }
        set { edit { $0.bio = newValue } }
    }
    public var avatarURL: String? {
        get { storage.fields.avatarURL }
        set { edit { $0.avatarURL = newValue } }
    }
    public var homeGym: String? {
        get { storage.fields.homeGym }
        set { edit { $0.homeGym = newValue } }
    }
    public var climbingSince: CalendarDay? {
        get { storage.fields.climbingSince }
        set { edit { $0.climbingSince = newValue } }
    }
    public var favoriteStyle: String? {
        get { storage.fields.favoriteStyle }
        set { edit { $0.favoriteStyle = newValue } }
    }
    public var isPublic: Bool {
        get { storage.fields.isPublic }
        set { edit { $0.isPublic = newValue } }
    }
    public var followerCount: Int {
        get { storage.fields.followerCount }
        set { edit { $0.followerCount = newValue } }
    }
    public var followingCount: Int {
        get { storage.fields.followingCount }
        set { edit { $0.followingCount = newValue } }
    }
    /// How many sends (climbs completed) the climber has logged: a stored counter that the
    /// climbing log keeps (seed 000 `sendCount`); read-only through the gateway.
    public var sendCount: Int {
        get { storage.fields.sendCount }
        set { edit { $0.sendCount = newValue } }
    }
    /// How many posts the profile has (a stored counter, kept with each post written or deleted).
    public var postCount: Int {
        get { storage.fields.postCount }
        set { edit { $0.postCount = newValue } }
    }
    public var createdAt: Date {
        get { storage.fields.createdAt }
        set { edit { $0.createdAt = newValue } }
    }
    public var updatedAt: Date {
        get { storage.fields.updatedAt }
        set { edit { $0.updatedAt = newValue } }
    }
    /// How much of the profile the viewer it was read for may see: everything, or only its card
    /// (a private profile seen by a signed-in stranger). See ``ProfileAccess``.
    public var access: ProfileAccess {
        get { storage.fields.access }
        set { edit { $0.access = newValue } }
    }

    /// The viewer's follow state with this profile, as the page that listed it read it (nil when
    /// it came otherwise): a list's `viewerIsFollowing` and `followsViewer` then cost no lookup.
    /// Not part of the profile's value: equality and hashing ignore it.
    public var listedViewerState: FollowState? { storage.viewerState }

    /// This profile with the viewer's follow state the listing read brought.
    public func listed(with state: FollowState?) -> Profile {
        guard let state else { return self }
        var copy = self
        copy.storage = Storage(storage.fields, viewerState: state)
        return copy
    }

    /// This profile as its card: the fields behind the card (bio, home gym, climbing since,
    /// favourite style) are gone, so no path can hand them on.
    public func card() -> Profile {
        var card = self
        card.edit {
            $0.bio = nil
            $0.homeGym = nil
            $0.climbingSince = nil
            $0.favoriteStyle = nil
            $0.access = .card
        }
        return card
    }

    public init(
        id: UUID, handle: String, displayName: String? = nil, bio: String? = nil,
        avatarURL: String? = nil, homeGym: String? = nil, climbingSince: CalendarDay? = nil,
        favoriteStyle: String? = nil, isPublic: Bool = true, followerCount: Int = 0,
        followingCount: Int = 0, sendCount: Int = 0, postCount: Int = 0, createdAt: Date, updatedAt: Date
    ) {
        storage = Storage(Fields(
            id: id, handle: handle, displayName: displayName, bio: bio, avatarURL: avatarURL, homeGym: homeGym,
            climbingSince: climbingSince, favoriteStyle: favoriteStyle, isPublic: isPublic, followerCount: followerCount,
            followingCount: followingCount, sendCount: sendCount, postCount: postCount, createdAt: createdAt,
            updatedAt: updatedAt))
    }

    public static func == (lhs: Profile, rhs: Profile) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// ``SocialRules/access(_:)`` of this profile for `viewer`, given whether the viewer actively
    /// follows it and whether a block stands between them.
    public func access(for viewer: Viewer, viewerFollows: Bool, blocked: Bool = false) -> ProfileAccess? {
        ProfileAccess.of(profileId: id, isPublic: isPublic, viewer: viewer, viewerFollows: viewerFollows, blocked: blocked)
    }
}
