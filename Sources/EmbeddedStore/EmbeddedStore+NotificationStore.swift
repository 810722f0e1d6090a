import Foundation
import GRDB
import SocialDomain

/// Stored notifications (issue 54): written by the triggers of `EmbeddedSchema.v17` in the
/// writing transaction; read and marked here, the viewer's own rows only (the
/// `notifications_read_own` and `notifications_mark_own` policies, emulated by the recipient).
extension EmbeddedStore: NotificationStore {
    public func storedNotifications(since: Int64, limit: Int, viewer: Viewer) async throws -> [StoredNotification] {
        try await call(.storedNotifications) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewNotifications) }
            return try read { db in
                let rows = try Row.fetchAll(
                    db.cachedStatement(sql: """
                        SELECT kind, actor_id, recipient_id, post_id, comment_id, at_us, read_at FROM notifications
                        WHERE recipient_id = ? AND at_us >= ? ORDER BY at_us DESC, key DESC LIMIT ?
                        """),
                    arguments: [me.lowercased, since, max(0, min(limit, NotificationRules.perRecipientLimit))])
                return try rows.map(Self.decodeNotification)
            }
        }
    }

    public func markNotificationsRead(_ selection: NotificationReadSelection, viewer: Viewer) async throws -> Int {
        try await call(.markNotificationsRead) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewNotifications) }
            let now = UnixMicroseconds.from(options.clock.now())
            return try await pool.write { db in
                switch selection {
                case .one(let key):
                    try db.cachedStatement(sql: """
                        UPDATE notifications SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL AND key = ?
                        """).execute(arguments: [now, me.lowercased, key])
                case .through(let position):
                    try db.cachedStatement(sql: """
                        UPDATE notifications SET read_at = ?
                        WHERE recipient_id = ? AND read_at IS NULL AND (at_us < ? OR (at_us = ? AND key <= ?))
                        """).execute(arguments: [now, me.lowercased, position.at, position.at, position.key])
                }
                return db.changesCount
            }
        }
    }

    static func decodeNotification(_ row: Row) throws -> StoredNotification {
        func id(_ column: String) throws -> UUID? {
            guard let text: String = row[column] else { return nil }
            guard let id = UUID(uuidString: text) else { throw MalformedNotification(column: column) }
            return id
        }
        guard let kind = Activity.Kind(rawValue: row["kind"]), let actor = try id("actor_id"), let subject = try id("recipient_id")
        else { throw MalformedNotification(column: "kind") }
        let activity = Activity(
            kind: kind, actor: actor, subject: subject, post: try id("post_id"), comment: try id("comment_id"), at: row["at_us"])
        return StoredNotification(activity: activity, isRead: (row["read_at"] as Int64?) != nil)
    }
}

/// A notifications row this code cannot read (only a hand-edited database has one).
struct MalformedNotification: Error, CustomStringConvertible {
    let column: String
    var description: String { "notifications row with an unreadable \(column)" }
}
