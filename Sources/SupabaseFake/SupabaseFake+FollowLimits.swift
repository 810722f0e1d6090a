import Foundation
import Hummingbird
import SocialDomain

/// The follow limits inside the database (migration 20250301003000): `social_private.count_follow`,
/// which the follow functions call before they make a follow or a new request. Runs under
/// ``SupabaseFake/lock``.
extension SupabaseFake {
    /// Sets the database's limits, as `alter database ... set social_gateway.follows_per_hour`
    /// does (0: no limit); tests lower them to meet them in a few calls.
    public func setDatabaseFollowLimits(perHour: Int, perDay: Int) {
        lock.withLock { databaseFollowLimits = (perHour, perDay) }
    }

    /// Counts one follow or request of `me`, or the PT429 the SQL raises past a limit.
    func countFollow(_ me: UUID) -> Response? {
        let now = nowMicroseconds
        let hour: Int64 = 3_600_000_000, day: Int64 = 86_400_000_000
        var events = (followEvents[me] ?? []).filter { $0 > now - day }
        let (perHour, perDay) = databaseFollowLimits
        let inHour = events.filter { $0 > now - hour }
        if perHour > 0, inHour.count >= perHour, let oldest = inHour.min() {
            followEvents[me] = events
            return Self.condition(429, "PT429", "follows_per_hour", details: "retry_after=\(Self.seconds(until: oldest + hour, from: now))")
        }
        if perDay > 0, events.count >= perDay, let oldest = events.min() {
            followEvents[me] = events
            return Self.condition(429, "PT429", "follows_per_day", details: "retry_after=\(Self.seconds(until: oldest + day, from: now))")
        }
        events.append(now)
        followEvents[me] = events
        return nil
    }

    /// Whole seconds from `now` to `end` (microseconds), at least 1, rounded up as the SQL's `ceil`.
    static func seconds(until end: Int64, from now: Int64) -> Int {
        max(1, Int((end - now + 999_999) / 1_000_000))
    }
}
