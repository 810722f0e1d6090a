import Foundation
import Synchronization

/// A session ended through the gateway, whose access tokens must stop working before they expire.
///
/// Access tokens are JWTs that verify on their own for an hour; ending a session in the identity
/// provider only stops its refresh token. So the gateway remembers what ended and refuses the
/// tokens itself (``EndedSessions``), and tells the other replicas through the change feed.
public enum SessionEnd: Sendable, Hashable, Codable {
    /// One session (sign-out): tokens carrying this `session_id` are refused until `until`, the
    /// ended token's own expiry.
    case session(UUID, user: UUID, until: Date)
    /// Every session of `user` whose tokens were issued at or before `issuedUpTo` (a password
    /// change or reset), except the session that change opened.
    ///
    /// Tokens say when they were issued in whole seconds (`iat`), so a change ends the tokens of
    /// the seconds before its own: one issued in the very second of the change lives on (a
    /// sign-in right after a change must work, and its token has that second's `iat` too).
    case allSessions(user: UUID, issuedUpTo: Date, except: UUID?)

    /// The end of every session of `user` issued before the second of `change` but `except`'s.
    public static func allSessions(of user: UUID, changedAt change: Date, except: UUID?) -> SessionEnd {
        .allSessions(user: user, issuedUpTo: Date(timeIntervalSince1970: change.timeIntervalSince1970.rounded(.down) - 0.5), except: except)
    }
}

/// The sessions that ended lately, checked on every authenticated request without a store call:
/// two dictionary lookups under a lock.
///
/// Entries are kept for ``retention`` (24 hours: longer than any access token the gateway or
/// Supabase Auth issues by default, one hour), and at most ``maxEntries`` of each kind (the
/// oldest go first). What one replica records it announces through ``announcer`` (the
/// PostgreSQL change feed, when the server has `DATABASE_URL`); what others announce arrives
/// through ``apply(_:)``.
///
/// ```swift
/// await ended.record(.session(sessionId, user: me, until: tokenExpiry))
/// ended.isEnded(user: me, session: sessionId, issuedAt: iat)   // true
/// ```
public final class EndedSessions: Sendable {
    /// Tells the other replicas; reports its own failures (the session has ended here either way).
    public typealias Announcer = @Sendable (SessionEnd) async -> Void

    private struct Cutoff {
        var issuedUpTo: Date
        var except: Set<UUID>
        var recorded: Date
    }

    private struct State {
        var sessions: [UUID: Date] = [:]
        var cutoffs: [UUID: Cutoff] = [:]
        var announcer: Announcer?
        var observers: [@Sendable ([SessionEnd]) -> Void] = []
    }

    public let retention: TimeInterval
    public let maxEntries: Int
    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    public init(retention: TimeInterval = 24 * 3600, maxEntries: Int = 100_000, now: @escaping @Sendable () -> Date = { Date() }) {
        self.retention = retention
        self.maxEntries = maxEntries
        self.now = now
    }

    /// Where this replica's ends are announced to the others.
    public func setAnnouncer(_ announcer: Announcer?) {
        state.withLock { $0.announcer = announcer }
    }

    /// Whether a token of `user`, in `session`, issued at `issuedAt`, belongs to an ended session.
    /// A token without `iat` (neither the gateway's nor Supabase Auth's lack it) is judged by its
    /// session alone: its age is unknown, and refusing it would lock its user out for a day.
    public func isEnded(user: UUID, session: UUID?, issuedAt: Date?) -> Bool {
        state.withLock { state in
            if let session, let until = state.sessions[session], until > now() { return true }
            guard let cutoff = state.cutoffs[user], let issuedAt else { return false }
            if let session, cutoff.except.contains(session) { return false }
            return issuedAt <= cutoff.issuedUpTo
        }
    }

    /// Calls `observer` with every end recorded from now on, this replica's and the others', once
    /// it is in force: live connections (WebSockets, event streams) close the sessions that ended
    /// rather than outlive them (issue 51).
    public func onEnd(_ observer: @escaping @Sendable ([SessionEnd]) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Records an end made here, then announces it to the other replicas.
    public func record(_ end: SessionEnd) async {
        apply([end])
        await state.withLock({ $0.announcer })?(end)
    }

    /// Records ends another replica announced.
    public func apply(_ ends: [SessionEnd]) {
        let now = now()
        let observers = state.withLock { state -> [@Sendable ([SessionEnd]) -> Void] in
            for end in ends {
                switch end {
                case .session(let id, _, let until):
                    guard until > now else { continue }
                    if state.sessions.count >= maxEntries { Self.prune(&state, now: now, retention: retention, keep: maxEntries / 2) }
                    state.sessions[id] = max(until, state.sessions[id] ?? until)
                case .allSessions(let user, let issuedUpTo, let except):
                    if state.cutoffs.count >= maxEntries { Self.prune(&state, now: now, retention: retention, keep: maxEntries / 2) }
                    var cutoff = state.cutoffs[user] ?? Cutoff(issuedUpTo: .distantPast, except: [], recorded: now)
                    if issuedUpTo > cutoff.issuedUpTo {
                        // A later change ends the sessions an earlier one kept.
                        cutoff.except = []
                        cutoff.issuedUpTo = issuedUpTo
                    }
                    if let except { cutoff.except.insert(except) }
                    cutoff.recorded = now
                    state.cutoffs[user] = cutoff
                }
            }
            return state.observers
        }
        for observer in observers where !ends.isEmpty { observer(ends) }
    }

    /// Drops expired entries, then the oldest until at most `keep` of each kind remain.
    private static func prune(_ state: inout State, now: Date, retention: TimeInterval, keep: Int) {
        state.sessions = state.sessions.filter { $0.value > now }
        state.cutoffs = state.cutoffs.filter { now.timeIntervalSince($0.value.recorded) < retention }
        if state.sessions.count > keep {
            let kept = state.sessions.sorted { $0.value > $1.value }.prefix(keep)
            state.sessions = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        if state.cutoffs.count > keep {
            let kept = state.cutoffs.sorted { $0.value.recorded > $1.value.recorded }.prefix(keep)
            state.cutoffs = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
    }
}

/// The claims of an access token the server has already verified, read without verifying
/// again: the session it belongs to and its times.
public struct VerifiedTokenClaims: Sendable, Hashable {
    public var sessionId: UUID?
    public var issuedAt: Date?
    public var expiresAt: Date?

    /// Reads the payload of a compact JWT; nil when it is not one.
    public init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
              let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
        else { return nil }
        sessionId = (claims["session_id"] as? String).flatMap { UUID(parsing: $0) }
        issuedAt = (claims["iat"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        expiresAt = (claims["exp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
    }
}
