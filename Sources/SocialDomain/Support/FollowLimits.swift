import Foundation

/// How many follows and follow requests one viewer may make (issue 40): 100 an hour and 500 a
/// day, `TOO_MANY_REQUESTS` with `retryAfter` past either. Only a call that made a follow or a
/// request counts: following someone already followed, unfollowing and cancelling are free.
///
/// In memory, per process, like ``AccountLimits``: with several replicas a viewer's calls spread
/// over them may get up to that many times the limit. Memory is bounded: at most `maxViewers`
/// viewers are remembered per window (the stalest go first).
///
/// ```swift
/// let limits = FollowLimits()
/// let outcome = try await FollowProfile(follows: store, limits: limits).execute(profileId: bob, viewer: alice)
/// ```
public final class FollowLimits: Sendable {
    public static let perHour = 100
    public static let perDay = 500
    public let hourly: AttemptLimiter
    public let daily: AttemptLimiter

    public init(
        hourly: AttemptLimiter = AttemptLimiter(limit: FollowLimits.perHour, window: .seconds(3600), maxKeys: 20_000),
        daily: AttemptLimiter = AttemptLimiter(limit: FollowLimits.perDay, window: .seconds(86_400), maxKeys: 20_000)
    ) {
        self.hourly = hourly
        self.daily = daily
    }

    /// Counts one follow or request for `viewer` before it is made.
    /// - Throws: `TOO_MANY_REQUESTS` with the seconds until one counts no more, counting nothing.
    func reserve(_ viewer: UUID) throws {
        let key = viewer.lowercased
        try hourly.reserve(key)
        do {
            try daily.reserve(key)
        } catch {
            hourly.release(key)
            throw error
        }
    }

    /// Takes back a reservation whose call made no follow or request (or failed).
    func release(_ viewer: UUID) {
        hourly.release(viewer.lowercased)
        daily.release(viewer.lowercased)
    }
}
