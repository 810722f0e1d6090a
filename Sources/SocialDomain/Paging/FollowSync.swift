import Foundation

/// One of the viewer's follows as it is now, for an offline-first client's sync (seed 000
/// `fetchUpdatedSince`): undone follows are included, with the time they were undone.
public struct FollowRecord: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var followerId: UUID
    public var followeeId: UUID
    public var createdAtMicroseconds: Int64
    /// When the follow last changed: made, undone or restored.
    public var updatedAtMicroseconds: Int64
    public var deletedAtMicroseconds: Int64?

    public init(
        id: UUID, followerId: UUID, followeeId: UUID, createdAtMicroseconds: Int64, updatedAtMicroseconds: Int64,
        deletedAtMicroseconds: Int64?
    ) {
        self.id = id
        self.followerId = followerId
        self.followeeId = followeeId
        self.createdAtMicroseconds = createdAtMicroseconds
        self.updatedAtMicroseconds = updatedAtMicroseconds
        self.deletedAtMicroseconds = deletedAtMicroseconds
    }

    public var createdAt: Date { UnixMicroseconds.date(createdAtMicroseconds) }
    public var updatedAt: Date { UnixMicroseconds.date(updatedAtMicroseconds) }
    public var deletedAt: Date? { deletedAtMicroseconds.map(UnixMicroseconds.date) }
    /// Where this record sits in a sync: by change time, then id.
    public var keyset: SyncKeyset { SyncKeyset(updatedAtMicroseconds: updatedAtMicroseconds, followId: id) }
}

/// The position of a follow in change order: (updated_at, id) ascending, both exact.
public struct SyncKeyset: Sendable, Hashable {
    public var updatedAtMicroseconds: Int64
    public var followId: UUID
    public init(updatedAtMicroseconds: Int64, followId: UUID) {
        self.updatedAtMicroseconds = updatedAtMicroseconds
        self.followId = followId
    }
}

/// A validated request for the viewer's follows changed after ``sinceMicroseconds``.
public struct FollowSyncRequest: Sendable, Hashable {
    /// Changes strictly after this time.
    public var sinceMicroseconds: Int64
    /// Start after this record (the previous page's last); nil for the first page.
    public var after: SyncKeyset?
    public var limit: Int

    public init(sinceMicroseconds: Int64, after: SyncKeyset? = nil, limit: Int = PageSize.followChanges.defaultSize) {
        self.sinceMicroseconds = sinceMicroseconds
        self.after = after
        self.limit = limit
    }
}

/// One page of a sync, oldest change first.
public struct FollowSyncPage: Sendable, Hashable {
    public var records: [FollowRecord]
    public var hasNextPage: Bool
    public init(records: [FollowRecord], hasNextPage: Bool) {
        self.records = records
        self.hasNextPage = hasNextPage
    }

    /// The page from the records a store read for `request` (``ReadAheadPage/rowsToFetch`` of
    /// them, in sync order), the recipe every store shares.
    public static func assemble(request: FollowSyncRequest, fetched: [FollowRecord]) -> FollowSyncPage {
        let (records, more) = request.trim(fetched)
        return FollowSyncPage(records: records, hasNextPage: more)
    }
}
