import Foundation

/// The viewer's own follows changed since a time (seed 000 `fetchUpdatedSince`, "supports
/// sync"): an offline-first client keeps its copy of whom it follows and applies the changes,
/// undone follows included with their deletion time. Keyset-paged by change time, so a follow
/// that changes while a client pages moves to the end instead of being skipped.
///
/// The seed's query also returned follows of the user by others; only the viewer's own are
/// returned here: who stopped following someone, and when, is not theirs to sync.
///
/// ```swift
/// let page = try await SyncFollows(follows: store).execute(sinceMicroseconds: lastSync, first: 50, after: nil, viewer: viewer)
/// ```
public struct SyncFollows: Sendable {
    public let follows: any FollowStore

    public init(follows: any FollowStore) { self.follows = follows }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (`first`, `after`),
    ///   `BACKEND_UNAVAILABLE`.
    /// - Parameter sinceMicroseconds: changes strictly after this time (``UnixMicroseconds``), exact.
    public func execute(sinceMicroseconds: Int64, first: Int?, after: String?, viewer: Viewer) async throws -> FollowSyncPage {
        let request = try Self.validate(sinceMicroseconds: sinceMicroseconds, first: first, after: after, viewer: viewer)
        return try await backend { try await follows.followChanges(request, viewer: viewer) }
    }

    /// The argument rules, without touching a store.
    public static func validate(
        sinceMicroseconds: Int64, first: Int?, after: String?, viewer: Viewer
    ) throws -> FollowSyncRequest {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .syncFollows) }
        let limit = try PageSize.followChanges.checked(first, field: "first")
        var keyset: SyncKeyset?
        if let after {
            guard case .sync(let owner, let key)? = PageCursor.decode(after), owner == me else {
                throw DomainError.invalidCursor(field: "after")
            }
            keyset = key
        }
        return FollowSyncRequest(sinceMicroseconds: sinceMicroseconds, after: keyset, limit: limit)
    }
}
