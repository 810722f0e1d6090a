import Foundation
import Synchronization

/// Counts attempts per key in a sliding window and refuses past a limit, with the seconds until
/// the oldest attempt leaves the window: the sign-in and sign-up rate limits. In memory, per
/// process (each replica limits on its own; the identity provider limits too).
///
/// ```swift
/// let failures = AttemptLimiter(limit: 5, window: .seconds(60))
/// try failures.check("email:alice@example.com")      // throws TOO_MANY_REQUESTS past 5
/// failures.record("email:alice@example.com")
/// ```
public final class AttemptLimiter: Sendable {
    public let limit: Int
    public let window: Duration
    /// Most keys remembered; the stalest go first (a flood of new keys cannot grow memory).
    public let maxKeys: Int
    private let attempts = Mutex<[String: [ContinuousClock.Instant]]>([:])

    public init(limit: Int, window: Duration, maxKeys: Int = 100_000) {
        self.limit = limit
        self.window = window
        self.maxKeys = maxKeys
    }

    /// - Throws: `TOO_MANY_REQUESTS` with the retry time when `key` has `limit` attempts in the window.
    public func check(_ key: String, now: ContinuousClock.Instant = .now) throws {
        let wait = attempts.withLock { table -> Duration? in
            let recent = (table[key] ?? []).filter { now - $0 < window }
            table[key] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return window - (now - oldest)
        }
        if let wait {
            throw DomainError.tooManyAttempts(retryAfter: max(1, Int(wait.components.seconds) + 1))
        }
    }

    /// Counts one attempt for `key`.
    public func record(_ key: String, now: ContinuousClock.Instant = .now) {
        attempts.withLock { table in
            if table[key] == nil, table.count >= maxKeys {
                // Drop the keys whose last attempt is oldest (a tenth of the table).
                let stalest = table.sorted { ($0.value.last ?? now) < ($1.value.last ?? now) }.prefix(max(1, maxKeys / 10))
                for (old, _) in stalest { table[old] = nil }
            }
            table[key, default: []].append(now)
        }
    }

    /// Forgets `key`'s attempts (a successful sign-in clears its email's failures).
    public func reset(_ key: String) {
        _ = attempts.withLock { $0.removeValue(forKey: key) }
    }
}

/// The limits of the account use cases, shared by every request of a process.
public final class AccountLimits: Sendable {
    /// Failed sign-ins per email: 5 a minute.
    public let failedSignInsPerEmail: AttemptLimiter
    /// Sign-in attempts per client address: 20 a minute.
    public let signInsPerAddress: AttemptLimiter
    /// Sign-ups and password-reset requests per client address: 5 a minute.
    public let signUpsPerAddress: AttemptLimiter

    public init(
        failedSignInsPerEmail: AttemptLimiter = AttemptLimiter(limit: 5, window: .seconds(60)),
        signInsPerAddress: AttemptLimiter = AttemptLimiter(limit: 20, window: .seconds(60)),
        signUpsPerAddress: AttemptLimiter = AttemptLimiter(limit: 5, window: .seconds(60))
    ) {
        self.failedSignInsPerEmail = failedSignInsPerEmail
        self.signInsPerAddress = signInsPerAddress
        self.signUpsPerAddress = signUpsPerAddress
    }
}
