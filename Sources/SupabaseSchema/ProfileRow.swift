import Foundation
import SocialDomain

/// A profile as PostgREST returns it (`select=` on `profiles`, or `profile_json()` inside the
/// functions' results): snake_case keys, timestamps with microseconds and an offset. Encodable
/// too, for the Supabase fake, which answers with these rows: absent values as explicit nulls,
/// as PostgREST writes them.
public struct ProfileRow: Codable, Sendable {
    public var id: String
    public var handle: String
    public var display_name: String?
    public var bio: String?
    public var photo_url: String?
    public var home_gym: String?
    public var climbing_since: String?
    public var favorite_style: String?
    public var is_public: Bool
    public var follower_count: Int
    public var following_count: Int
    public var send_count: Int
    /// Absent from rows of databases before migration 20250301001300 (read as 0).
    public var post_count: Int?
    public var created_at: String
    public var updated_at: String
    /// True in the rows of `profile_cards` (migration 20250301002300): the viewer sees only the
    /// card of this private profile (``ProfileAccess/card``); absent elsewhere.
    public var card: Bool? = nil

    /// The explicit column list of every profile read, in the order the stores select them.
    public static let columnNames = [
        "id", "handle", "display_name", "bio", "photo_url", "home_gym", "climbing_since", "favorite_style",
        "is_public", "follower_count", "following_count", "created_at", "updated_at", "send_count", "post_count",
    ]

    public init(
        id: String, handle: String, display_name: String?, bio: String?, photo_url: String?, home_gym: String?,
        climbing_since: String?, favorite_style: String?, is_public: Bool, follower_count: Int, following_count: Int,
        send_count: Int, post_count: Int?, created_at: String, updated_at: String
    ) {
        self.id = id
        self.handle = handle
        self.display_name = display_name
        self.bio = bio
        self.photo_url = photo_url
        self.home_gym = home_gym
        self.climbing_since = climbing_since
        self.favorite_style = favorite_style
        self.is_public = is_public
        self.follower_count = follower_count
        self.following_count = following_count
        self.send_count = send_count
        self.post_count = post_count
        self.created_at = created_at
        self.updated_at = updated_at
    }

    public enum CodingKeys: String, CodingKey {
        case id, handle, display_name, bio, photo_url, home_gym, climbing_since, favorite_style, is_public
        case follower_count, following_count, send_count, post_count, created_at, updated_at, card
    }

    /// Every column, nulls explicit (the synthesized encoder would leave them out).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(handle, forKey: .handle)
        try c.encode(display_name, forKey: .display_name)
        try c.encode(bio, forKey: .bio)
        try c.encode(photo_url, forKey: .photo_url)
        try c.encode(home_gym, forKey: .home_gym)
        try c.encode(climbing_since, forKey: .climbing_since)
        try c.encode(favorite_style, forKey: .favorite_style)
        try c.encode(is_public, forKey: .is_public)
        try c.encode(follower_count, forKey: .follower_count)
        try c.encode(following_count, forKey: .following_count)
        try c.encode(send_count, forKey: .send_count)
        try c.encode(post_count, forKey: .post_count)
        try c.encode(created_at, forKey: .created_at)
        try c.encode(updated_at, forKey: .updated_at)
        try c.encodeIfPresent(card, forKey: .card)
    }

    /// - Throws: ``MalformedRow(_:)`` for an id, date or time this code cannot read.
    public func profile() throws -> Profile {
        guard let uuid = UUID(parsing: id) else { throw MalformedRow("profile id \(id)") }
        guard let created = SupabaseTimestamp.microseconds(created_at),
              let updated = SupabaseTimestamp.microseconds(updated_at)
        else { throw MalformedRow("profile timestamps \(created_at) \(updated_at)") }
        var since: CalendarDay?
        if let climbing_since {
            guard let day = CalendarDay(climbing_since) else { throw MalformedRow("climbing_since \(climbing_since)") }
            since = day
        }
        let profile = Profile(
            id: uuid, handle: handle, displayName: display_name, bio: bio, avatarURL: photo_url,
            homeGym: home_gym, climbingSince: since, favoriteStyle: favorite_style, isPublic: is_public,
            followerCount: follower_count, followingCount: following_count, sendCount: send_count, postCount: post_count ?? 0,
            createdAt: UnixMicroseconds.date(created), updatedAt: UnixMicroseconds.date(updated))
        return card == true ? profile.card() : profile
    }
}

/// The body of a profile update: only the changed columns, `null` for a cleared one.
public struct ProfilePatch: Encodable {
    public var changes: ProfileChanges

    public init(changes: ProfileChanges) { self.changes = changes }

    public enum Key: String, CodingKey {
        case handle, display_name, bio, photo_url, home_gym, climbing_since, favorite_style, is_public
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        func put(_ update: FieldUpdate<String>, _ key: Key) throws { try c.encode(update, forKey: key) }
        if let handle = changes.handle { try c.encode(handle, forKey: .handle) }
        try put(changes.displayName, .display_name)
        try put(changes.bio, .bio)
        try put(changes.avatarURL, .photo_url)
        try put(changes.homeGym, .home_gym)
        try put(changes.climbingSince.map(\.description), .climbing_since)
        try put(changes.favoriteStyle, .favorite_style)
        if let isPublic = changes.isPublic { try c.encode(isPublic, forKey: .is_public) }
    }
}

extension KeyedEncodingContainer {
    /// A partial update's column: nothing when kept, `null` when cleared, the value when set.
    public mutating func encode(_ update: FieldUpdate<String>, forKey key: Key) throws {
        switch update {
        case .keep: break
        case .clear: try encodeNil(forKey: key)
        case .set(let value): try encode(value, forKey: key)
        }
    }
}
