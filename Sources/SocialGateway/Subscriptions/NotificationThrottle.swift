import Foundation
import SocialDomain
import Synchronization

/// Repeated notifications of one actor, target and kind, told once per window: a like toggled
/// on and off 500 times in one request (issue 51: a batch of 20 x 50 aliases sent 500
/// notifications) tells its post's author once, not 500 times.
///
/// A follow or a like says nothing new when repeated: one per window
/// (``SubscriptionLimits/notificationRepeatWindowSeconds``, 60 s). A comment carries new text, so
/// the first ``commentsPerWindow`` of one commenter on one post in a window are told, the rest
/// only through the post itself (`postActivity`, its comments). The table is bounded by
/// ``maxKeys``: past it, expired entries go, then all (a repeat may then be told once more).
///
/// ```swift
/// let throttle = NotificationThrottle(window: .seconds(60))
/// throttle.admits(like)   // true
/// throttle.admits(like)   // false until 60 s have passed
/// ```
final class NotificationThrottle: Sendable {
    private struct Key: Hashable {
        let kind: Activity.Kind
        let actor: UUID
        /// The post for a like or a comment, the profile for a follow.
        let target: UUID
    }

    private struct Entry {
        var since: ContinuousClock.Instant
        var told: Int
    }

    /// Comments of one commenter on one post told per window.
    static let commentsPerWindow = 5
    /// Most keys kept.
    let maxKeys: Int
    let window: Duration
    private let table = Mutex<[Key: Entry]>([:])

    /// - Parameter window: zero tells every notification.
    init(window: Duration, maxKeys: Int = 100_000) {
        self.window = window
        self.maxKeys = max(1, maxKeys)
    }

    /// Whether `activity`'s notification is told now (and counts it).
    func admits(_ activity: Activity) -> Bool {
        guard window > .zero else { return true }
        let key = Key(kind: activity.kind, actor: activity.actor, target: activity.post ?? activity.subject)
        let allowance = activity.kind == .commented ? Self.commentsPerWindow : 1
        let now = ContinuousClock.now
        return table.withLock { table in
            if var entry = table[key], now - entry.since < window {
                guard entry.told < allowance else { return false }
                entry.told += 1
                table[key] = entry
                return true
            }
            if table.count >= maxKeys {
                table = table.filter { now - $0.value.since < window }
                if table.count >= maxKeys { table.removeAll(keepingCapacity: true) }
            }
            table[key] = Entry(since: now, told: 1)
            return true
        }
    }
}
