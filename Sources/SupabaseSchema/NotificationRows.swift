import Foundation
import SocialDomain

/// One element of `notification_rows` (migration 20250301004400):
/// `{"kind","actor","subject","post","comment","at","read"}`, newest first.
public struct NotificationRow: Codable, Sendable {
    public var kind: String
    public var actor: UUID
    public var subject: UUID
    public var post: UUID?
    public var comment: UUID?
    public var at: Int64
    public var read: Bool

    /// The stored notification.
    /// - Throws: ``MalformedRow`` for a kind this code does not know.
    public func notification() throws -> StoredNotification {
        guard let kind = Activity.Kind(rawValue: kind) else { throw MalformedRow("notification kind \(kind)") }
        return StoredNotification(
            activity: Activity(kind: kind, actor: actor, subject: subject, post: post, comment: comment, at: at), isRead: read)
    }
}

/// The body of `POST /rest/v1/rpc/notification_rows`.
public struct NotificationRowsArguments: Codable, Sendable {
    public var since_us: Int64
    public var max_rows: Int
    public init(since: Int64, limit: Int) {
        since_us = since
        max_rows = limit
    }
}

/// The body of `POST /rest/v1/rpc/mark_notifications_read`: `only_key`, or `through_us` with
/// `through_key`.
public struct MarkNotificationsReadArguments: Codable, Sendable {
    public var only_key: String?
    public var through_us: Int64?
    public var through_key: String?
    public init(_ selection: NotificationReadSelection) {
        switch selection {
        case .one(let key): only_key = key
        case .through(let position):
            through_us = position.at
            through_key = position.key
        }
    }

    /// Only the keys that are set: PostgREST picks the function by the names given.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(only_key, forKey: .only_key)
        try container.encodeIfPresent(through_us, forKey: .through_us)
        try container.encodeIfPresent(through_key, forKey: .through_key)
    }
}
