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
            let recent = Self.pruned(&table, key, now: now, window: window)
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return window - (now - oldest)
        }
        if let wait { throw Self.refusal(wait) }
    }

    /// Checks and counts one attempt for `key` in one step, so that concurrent attempts cannot
    /// all pass a check before any of them is counted (12 guesses sent at once: at most `limit`
    /// are let through). Use it before the costly work an attempt buys (a password hash), and
    /// ``release(_:now:)`` or ``reset(_:)`` when the attempt should not count after all.
    /// - Throws: `TOO_MANY_REQUESTS` with the retry time, counting nothing.
    public func reserve(_ key: String, now: ContinuousClock.Instant = .now) throws {
        let wait = attempts.withLock { table -> Duration? in
            let recent = Self.pruned(&table, key, now: now, window: window)
            if recent.count >= limit, let oldest = recent.first { return window - (now - oldest) }
            Self.append(&table, key, now, maxKeys: maxKeys)
            return nil
        }
        if let wait { throw Self.refusal(wait) }
    }

    /// Takes back the newest attempt counted for `key` (one that turned out not to count: a
    /// reservation made before another limit refused the request, or a sign-in that succeeded).
    public func release(_ key: String) {
        attempts.withLock { table in
            guard var list = table[key], !list.isEmpty else { return }
            list.removeLast()
            table[key] = list.isEmpty ? nil : list
        }
    }

    private static func refusal(_ wait: Duration) -> DomainError {
        DomainError.tooManyAttempts(retryAfter: max(1, Int(wait.components.seconds) + 1))
    }

    /// `key`'s attempts inside the window, older ones dropped from the table.
    private static func pruned(
        _ table: inout [String: [ContinuousClock.Instant]], _ key: String, now: ContinuousClock.Instant, window: Duration
    ) -> [ContinuousClock.Instant] {
        let recent = (table[key] ?? []).filter { now - $0 < window }
        table[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private static func append(
        _ table: inout [String: [ContinuousClock.Instant]], _ key: String, _ now: ContinuousClock.Instant, maxKeys: Int
    ) {
        if table[key] == nil, table.count >= maxKeys {
            // Drop the keys whose last attempt is oldest (a tenth of the table).
            let stalest = table.sorted { ($0.value.last ?? now) < ($1.value.last ?? now) }.prefix(max(1, maxKeys / 10))
            for (old, _) in stalest { table[old] = nil }
        }
        table[key, default: []].append(now)
    }

    /// Counts one attempt for `key`.
    public func record(_ key: String, now: ContinuousClock.Instant = .now) {
        attempts.withLock { table in Self.append(&table, key, now, maxKeys: maxKeys) }
    }

    /// Forgets `key`'s attempts (a successful sign-in clears its email's failures).
    public func reset(_ key: String) {
        _ = attempts.withLock { $0.removeValue(forKey: key) }
    }
}

/// The limits of the account use cases, shared by every request of a process.
///
/// The sign-in policy (docs/SECURITY.md, "Accounts and sessions"): failures are counted per
/// email *and* client address (5 a minute), so a flood of wrong passwords from one address locks
/// out that address only, never the owner signing in from another; a looser limit per email
/// alone (100 in 10 minutes) bounds guessing spread over many addresses, and one address cannot
/// reach it on its own (5 a minute is 50 in 10). Every attempt is reserved before its password
/// is hashed, so concurrent guesses cannot outrun a limit.
public final class AccountLimits: Sendable {
    /// Failed sign-ins per email and client address: 5 a minute.
    public let failedSignInsPerEmailAndAddress: AttemptLimiter
    /// Failed sign-ins per email, from all addresses together: 100 in 10 minutes.
    public let failedSignInsPerEmail: AttemptLimiter
    /// Sign-in attempts per client address: 20 a minute.
    public let signInsPerAddress: AttemptLimiter
    /// Sign-ups and password-reset requests per client address: 5 a minute.
    public let signUpsPerAddress: AttemptLimiter
    /// Password resets tried (a reset link's token with a new password) per client address: 10 a minute.
    public let resetsPerAddress: AttemptLimiter
    /// Wrong current passwords in `changePassword` per account: 5 a minute.
    public let wrongCurrentPasswordsPerAccount: AttemptLimiter

    public init(
        failedSignInsPerEmailAndAddress: AttemptLimiter = AttemptLimiter(limit: 5, window: .seconds(60)),
        failedSignInsPerEmail: AttemptLimiter = AttemptLimiter(limit: 100, window: .seconds(600)),
        signInsPerAddress: AttemptLimiter = AttemptLimiter(limit: 20, window: .seconds(60)),
        signUpsPerAddress: AttemptLimiter = AttemptLimiter(limit: 5, window: .seconds(60)),
        resetsPerAddress: AttemptLimiter = AttemptLimiter(limit: 10, window: .seconds(60)),
        wrongCurrentPasswordsPerAccount: AttemptLimiter = AttemptLimiter(limit: 5, window: .seconds(60))
    ) {
        self.failedSignInsPerEmailAndAddress = failedSignInsPerEmailAndAddress
        self.failedSignInsPerEmail = failedSignInsPerEmail
        self.signInsPerAddress = signInsPerAddress
        self.signUpsPerAddress = signUpsPerAddress
        self.resetsPerAddress = resetsPerAddress
        self.wrongCurrentPasswordsPerAccount = wrongCurrentPasswordsPerAccount
    }
}
