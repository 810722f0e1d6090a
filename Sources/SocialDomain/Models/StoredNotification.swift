import Foundation

/// A notification as a store keeps it (issue 54): the ``Activity`` it tells of, for its subject
/// (the recipient), and whether the recipient has read it.
///
/// Each store writes one in the transaction of the write that causes it (a follow, a follow
/// request and its approval, a like, a comment on the recipient's post), keyed by
/// ``Activity/notificationKey``, so the stored one and the one a live subscription tells are the
/// same notification with the same id. A stored notification outlives an unlike or an unfollow
/// (it is history); it goes with its post or comment (deleted with them), with a block between the
/// two profiles, and by ``NotificationRules``' retention.
///
/// ```swift
/// let n = StoredNotification(activity: Activity(kind: .followed, actor: bob, subject: alice, at: t), isRead: false)
/// n.id        // the GraphQL id, the live notification's id too
/// ```
public struct StoredNotification: Sendable, Hashable {
    public var activity: Activity
    public var isRead: Bool

    public init(activity: Activity, isRead: Bool) {
        self.activity = activity
        self.isRead = isRead
    }

    /// The stores' key: ``Activity/notificationKey``.
    public var key: String { activity.notificationKey }

    /// The id clients see: the key in base64url, opaque (the live notification's id too).
    public var id: String { Self.id(ofKey: key) }

    /// Where it sits in the recipient's list (newest first).
    public var position: NotificationPosition { NotificationPosition(at: activity.at, key: key) }

    /// The id of a key.
    public static func id(ofKey key: String) -> String { Base64URL.encode(Array(key.utf8)) }

    /// The key of an id, when it is one: base64url of `kind:actor:subject:post:comment:at` with a
    /// known kind, lower-case UUIDs and a canonical time. Nil for anything else.
    public static func key(ofId id: String) -> String? {
        guard id.utf8.count <= 300, let bytes = Base64URL.decode(id), Base64URL.encode(bytes) == id,
              let key = String(bytes: bytes, encoding: .utf8), activity(ofKey: key) != nil
        else { return nil }
        return key
    }

    /// The activity a key names, when the key is well formed (the inverse of
    /// ``Activity/notificationKey``).
    public static func activity(ofKey key: String) -> Activity? {
        let parts = key.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, let kind = Activity.Kind(rawValue: parts[0]),
              let actor = canonicalUUID(parts[1]), let subject = canonicalUUID(parts[2]),
              let at = Int64(parts[5]), String(at) == parts[5]
        else { return nil }
        let post = parts[3].isEmpty ? nil : canonicalUUID(parts[3])
        let comment = parts[4].isEmpty ? nil : canonicalUUID(parts[4])
        if !parts[3].isEmpty && post == nil || !parts[4].isEmpty && comment == nil { return nil }
        let activity = Activity(kind: kind, actor: actor, subject: subject, post: post, comment: comment, at: at)
        return activity.isWellFormed && activity.kind != .posted ? activity : nil
    }
}

/// The UUID of its canonical (lower-case) text only.
private func canonicalUUID(_ text: String) -> UUID? {
    guard let id = UUID(uuidString: text), id.lowercased == text else { return nil }
    return id
}

/// The position of a notification in its recipient's list: (time, key), the key compared byte for
/// byte (`COLLATE "C"` in PostgreSQL, SQLite's default), so every store orders ties alike.
public struct NotificationPosition: Sendable, Hashable, Comparable {
    /// Microseconds since 1970 UTC: the activity's own time.
    public var at: Int64
    /// ``Activity/notificationKey``.
    public var key: String

    public init(at: Int64, key: String) {
        self.at = at
        self.key = key
    }

    /// Ascending: oldest first.
    public static func < (a: NotificationPosition, b: NotificationPosition) -> Bool {
        if a.at != b.at { return a.at < b.at }
        return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
    }
}

/// Which notifications ``NotificationStore/markNotificationsRead(_:viewer:)`` marks read.
public enum NotificationReadSelection: Sendable, Hashable {
    /// The one with this key (``Activity/notificationKey``).
    case one(key: String)
    /// Every one at or before this position (older or the same): "all up to this cursor".
    case through(NotificationPosition)
}

/// How long notifications are kept, and how many per recipient (issue 54). The stores enforce
/// both when they write one (the SQL's `social_private.notification_retention_days()` and
/// `notification_limit()`, the embedded store's trigger), and reads never list older ones;
/// `SQLBoundsTests` and `EmbeddedSchemaTests` check that they say the same as these.
public enum NotificationRules {
    /// Days a notification is kept after it happened.
    public static let retentionDays = 90
    /// The newest notifications kept per recipient; older ones go when a new one is written.
    public static let perRecipientLimit = 1_000

    /// The retention in microseconds.
    public static var retentionMicroseconds: Int64 { Int64(retentionDays) * 86_400_000_000 }

    /// The oldest time still listed at `now`.
    public static func oldestKept(now: Date) -> Int64 { UnixMicroseconds.from(now) - retentionMicroseconds }
}
