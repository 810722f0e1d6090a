import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Stored notifications (issue 54) through migration 20250301004400's functions, as the caller:
/// their own rows, by row-level security; the same rows the Supabase store reads over HTTP.
extension PostgresStore: NotificationStore {
    public func storedNotifications(since: Int64, limit: Int, viewer: Viewer) async throws -> [StoredNotification] {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .viewNotifications) }
        return try await read("storedNotifications", viewer: viewer) { connection, logger in
            let rows = try await connection.query(
                "select public.notification_rows(\(since)::bigint, \(limit)::integer)::text", logger: logger)
            return try await Self.decodeJSON([NotificationRow].self, from: rows, "storedNotifications").map { try $0.notification() }
        }
    }

    public func markNotificationsRead(_ selection: NotificationReadSelection, viewer: Viewer) async throws -> Int {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .viewNotifications) }
        return try await call("markNotificationsRead", viewer: viewer) { connection, logger in
            let rows: PostgresRowSequence
            switch selection {
            case .one(let key):
                rows = try await connection.query("select public.mark_notifications_read(only_key => \(key))", logger: logger)
            case .through(let position):
                rows = try await connection.query(
                    "select public.mark_notifications_read(through_us => \(position.at)::bigint, through_key => \(position.key))",
                    logger: logger)
            }
            var changed = 0
            for try await value in rows.decode(Int32.self) { changed = Int(value) }
            return changed
        }
    }
}
