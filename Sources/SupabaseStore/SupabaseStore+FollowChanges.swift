import Foundation
import SocialDomain

/// The sync of the viewer's own follows through `follow_changes` (migration 20250301000800).
extension SupabaseStore {
    /// `POST /rest/v1/rpc/follow_changes` with `{since_us, after_us, after_id, page_size}`;
    /// `limit + 1` rows tell whether a next page exists.
    public func followChanges(_ request: FollowSyncRequest, viewer: Viewer) async throws -> FollowSyncPage {
        try await call("followChanges") {
            guard viewer.userId != nil else { return FollowSyncPage(records: [], hasNextPage: false) }
            let arguments = FollowChangesArguments(
                since_us: request.sinceMicroseconds, after_us: request.after?.updatedAtMicroseconds,
                after_id: request.after?.followId.lowercased, page_size: request.limit + 1)
            let call = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/follow_changes",
                headers: [("Content-Type", "application/json")], body: try Self.json(arguments),
                idempotent: true, operation: "followChanges")
            let rows = try decode([FollowChangeRow].self, try await rest(call, viewer: viewer), "followChanges")
            let records = try rows.map { try $0.record() }
            return FollowSyncPage(records: Array(records.prefix(request.limit)), hasNextPage: records.count > request.limit)
        }
    }
}

/// The arguments of `follow_changes`; absent keys are sent as null, as the function expects.
struct FollowChangesArguments: Encodable {
    var since_us: Int64
    var after_us: Int64?
    var after_id: String?
    var page_size: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(since_us, forKey: .since_us)
        try container.encode(after_us, forKey: .after_us)
        try container.encode(after_id, forKey: .after_id)
        try container.encode(page_size, forKey: .page_size)
    }

    enum CodingKeys: String, CodingKey { case since_us, after_us, after_id, page_size }
}

/// One row of `follow_changes`.
struct FollowChangeRow: Decodable {
    var id: String
    var follower_id: String
    var followee_id: String
    var created_at: String
    var updated_at: String
    var deleted_at: String?

    func record() throws -> FollowRecord {
        guard let id = UUID(parsing: id), let follower = UUID(parsing: follower_id), let followee = UUID(parsing: followee_id),
              let created = SupabaseTimestamp.microseconds(created_at), let updated = SupabaseTimestamp.microseconds(updated_at)
        else { throw SupabaseFailure.malformed("follow_changes row \(id)") }
        var deleted: Int64?
        if let deleted_at {
            guard let value = SupabaseTimestamp.microseconds(deleted_at) else {
                throw SupabaseFailure.malformed("follow_changes row \(id)")
            }
            deleted = value
        }
        return FollowRecord(
            id: id, followerId: follower, followeeId: followee, createdAtMicroseconds: created,
            updatedAtMicroseconds: updated, deletedAtMicroseconds: deleted)
    }
}
