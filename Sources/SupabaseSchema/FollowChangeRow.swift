import Foundation
import SocialDomain

/// The arguments of `follow_changes`; absent keys are sent as null, as the function expects.
/// Decodable too, for the Supabase fake.
public struct FollowChangesArguments: Codable {
    public var since_us: Int64
    public var after_us: Int64?
    public var after_id: String?
    public var page_size: Int

    public init(since_us: Int64, after_us: Int64?, after_id: String?, page_size: Int) {
        self.since_us = since_us
        self.after_us = after_us
        self.after_id = after_id
        self.page_size = page_size
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(since_us, forKey: .since_us)
        try container.encode(after_us, forKey: .after_us)
        try container.encode(after_id, forKey: .after_id)
        try container.encode(page_size, forKey: .page_size)
    }

    public enum CodingKeys: String, CodingKey { case since_us, after_us, after_id, page_size }
}

/// One row of `follow_changes`. Encodable too, for the Supabase fake (`deleted_at` an explicit null).
public struct FollowChangeRow: Codable {
    public var id: String
    public var follower_id: String
    public var followee_id: String
    public var created_at: String
    public var updated_at: String
    public var deleted_at: String?

    public init(id: String, follower_id: String, followee_id: String, created_at: String, updated_at: String, deleted_at: String?) {
        self.id = id
        self.follower_id = follower_id
        self.followee_id = followee_id
        self.created_at = created_at
        self.updated_at = updated_at
        self.deleted_at = deleted_at
    }

    public enum CodingKeys: String, CodingKey { case id, follower_id, followee_id, created_at, updated_at, deleted_at }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(follower_id, forKey: .follower_id)
        try c.encode(followee_id, forKey: .followee_id)
        try c.encode(created_at, forKey: .created_at)
        try c.encode(updated_at, forKey: .updated_at)
        try c.encode(deleted_at, forKey: .deleted_at)
    }

    public func record() throws -> FollowRecord {
        guard let id = UUID(parsing: id), let follower = UUID(parsing: follower_id), let followee = UUID(parsing: followee_id),
              let created = SupabaseTimestamp.microseconds(created_at), let updated = SupabaseTimestamp.microseconds(updated_at)
        else { throw MalformedRow("follow_changes row \(id)") }
        var deleted: Int64?
        if let deleted_at {
            guard let value = SupabaseTimestamp.microseconds(deleted_at) else {
                throw MalformedRow("follow_changes row \(id)")
            }
            deleted = value
        }
        return FollowRecord(
            id: id, followerId: follower, followeeId: followee, createdAtMicroseconds: created,
            updatedAtMicroseconds: updated, deletedAtMicroseconds: deleted)
    }
}
