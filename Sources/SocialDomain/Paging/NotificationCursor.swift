import Foundation

/// An opaque cursor into a viewer's notifications (issue 54): for `Query.notifications(after:)`,
/// `markNotificationsRead(through:)` and `Subscription.notifications(after:)`.
///
/// Wire form: base64url (no padding) of `v1:notifications:<recipient uuid>:<at µs>:<notification id>`
/// (the id is itself base64url, so it holds no `:`). The recipient is inside, so another viewer's
/// cursor is refused; decoding is strict, only the canonical form of each field is accepted.
///
/// ```swift
/// let cursor = NotificationCursor(recipient: me, position: n.position).encoded
/// ```
public struct NotificationCursor: Sendable, Hashable {
    public var recipient: UUID
    public var position: NotificationPosition

    public init(recipient: UUID, position: NotificationPosition) {
        self.recipient = recipient
        self.position = position
    }

    public var encoded: String {
        let payload = "v1:notifications:\(recipient.lowercased):\(position.at):\(StoredNotification.id(ofKey: position.key))"
        return Base64URL.encode(Array(payload.utf8))
    }

    /// Nil for anything that is not a cursor this version wrote.
    public static func decode(_ text: String) -> NotificationCursor? {
        guard text.utf8.count <= 600, let bytes = Base64URL.decode(text), Base64URL.encode(bytes) == text,
              let payload = String(bytes: bytes, encoding: .utf8)
        else { return nil }
        let parts = payload.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == "v1", parts[1] == "notifications",
              let recipient = UUID(uuidString: parts[2]), recipient.lowercased == parts[2],
              let at = Int64(parts[3]), String(at) == parts[3],
              let key = StoredNotification.key(ofId: parts[4]),
              let activity = StoredNotification.activity(ofKey: key), activity.at == at, activity.subject == recipient
        else { return nil }
        return NotificationCursor(recipient: recipient, position: NotificationPosition(at: at, key: key))
    }

    /// The position of `text` when it is a cursor of `viewer`'s notifications.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` "`field` is not a valid cursor for this list".
    public static func position(_ text: String, of viewer: UUID, field: String) throws -> NotificationPosition {
        guard let cursor = decode(text), cursor.recipient == viewer else { throw DomainError.invalidCursor(field: field) }
        return cursor.position
    }
}

/// A page of the viewer's notifications, newest first, with the counts a client badges.
public struct NotificationPage: Sendable, Hashable {
    public var notifications: [StoredNotification]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    /// Every notification the viewer may be told of now (kept, and visible to them).
    public var totalCount: Int
    /// Those of them not read yet.
    public var unreadCount: Int

    public init(notifications: [StoredNotification], hasNextPage: Bool, hasPreviousPage: Bool, totalCount: Int, unreadCount: Int) {
        self.notifications = notifications
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.totalCount = totalCount
        self.unreadCount = unreadCount
    }
}
