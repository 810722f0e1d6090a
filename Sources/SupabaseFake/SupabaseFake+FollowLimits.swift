import Foundation

/// The follow limits inside the database (migration 20250301003000): the fake's database runs the
/// migration's `social_private.count_follow` itself; only the operator's settings are the fake's.
extension SupabaseFake {
    /// Sets the database's limits, as `alter database ... set social_gateway.follows_per_hour`
    /// does (0: no limit); tests lower them to meet them in a few calls.
    public func setDatabaseFollowLimits(perHour: Int, perDay: Int) {
        database.set("social_gateway.follows_per_hour", to: String(perHour))
        database.set("social_gateway.follows_per_day", to: String(perDay))
    }
}
