import Foundation

/// The notifications a backend keeps for each profile (issue 54), written by the stores
/// themselves in the transaction of the write that causes them (a follow or a restored follow, a
/// follow request, its approval, a like, a comment on the recipient's post: the embedded
/// store's triggers, migration 20250301004400's on PostgreSQL and Supabase), bounded by
/// ``NotificationRules`` when written.
///
/// Reads are the viewer's own rows (row-level security on Supabase and PostgreSQL), unfiltered:
/// what the viewer may be told of is the domain's rule, applied by ``ListNotifications`` and
/// ``CatchUpNotifications`` through the profile and post ports (``SocialRules/showsNotification(_:actor:)``).
///
/// ```swift
/// let rows = try await store.storedNotifications(since: oldest, limit: 1_000, viewer: viewer)  // newest first
/// ```
public protocol NotificationStore: Sendable {
    /// The viewer's notifications that happened at or after `since` (microseconds since 1970),
    /// newest first by ``NotificationPosition``, at most `limit`.
    /// - Throws: `UNAUTHENTICATED` for an anonymous viewer.
    func storedNotifications(since: Int64, limit: Int, viewer: Viewer) async throws -> [StoredNotification]

    /// Marks the viewer's notifications of `selection` read (those already read stay so).
    /// - Returns: how many changed.
    /// - Throws: `UNAUTHENTICATED` for an anonymous viewer.
    func markNotificationsRead(_ selection: NotificationReadSelection, viewer: Viewer) async throws -> Int
}

/// The notifications of a backend that keeps none: every call is BACKEND_UNAVAILABLE.
public struct NoNotifications: NotificationStore {
    public init() {}
    public func storedNotifications(since: Int64, limit: Int, viewer: Viewer) async throws -> [StoredNotification] {
        throw DomainError.backendUnavailable
    }
    public func markNotificationsRead(_ selection: NotificationReadSelection, viewer: Viewer) async throws -> Int {
        throw DomainError.backendUnavailable
    }
}
