import Foundation
import SocialDomain
import SupabaseSchema

/// Stored notifications (issue 54) through migration 20250301004400's functions: the caller's
/// own rows, by row-level security.
extension SupabaseStore: NotificationStore {
    /// `POST /rest/v1/rpc/notification_rows`.
    public func storedNotifications(since: Int64, limit: Int, viewer: Viewer) async throws -> [StoredNotification] {
        try await call("storedNotifications") {
            guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .viewNotifications) }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/notification_rows",
                headers: [("Content-Type", "application/json")],
                body: try Self.json(NotificationRowsArguments(since: since, limit: limit)),
                idempotent: true, operation: "storedNotifications")
            return try decode([NotificationRow].self, try await rest(request, viewer: viewer), "storedNotifications")
                .map { try $0.notification() }
        }
    }

    /// `POST /rest/v1/rpc/mark_notifications_read`: the number of rows it marked.
    public func markNotificationsRead(_ selection: NotificationReadSelection, viewer: Viewer) async throws -> Int {
        try await call("markNotificationsRead") {
            guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .viewNotifications) }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/mark_notifications_read",
                headers: [("Content-Type", "application/json")], body: try Self.json(MarkNotificationsReadArguments(selection)),
                idempotent: true, operation: "markNotificationsRead")
            return try decode(Int.self, try await rest(request, viewer: viewer), "markNotificationsRead")
        }
    }
}
