import Foundation
import SocialDomain
import Synchronization

/// Tokens whose signature was verified lately, with their claims, so that a client sending the
/// same bearer token on every request pays for the signature once a minute rather than on every
/// request.
///
/// Why: verifying an HS256 token and decoding its claims cost ~30 µs of CPU, which cut a cached
/// `{ __typename }` from 18,300 to 11,600 requests/s (issue #17). Only the signature check is
/// remembered: `exp`, `nbf`, `aud`, `iss` and `sub` are checked on every use, against the time
/// of that use. An entry is trusted for ``maxAge`` only, so a key removed from the JWKS stops
/// being honoured within that time. Only tokens that verified are kept: a stream of bad or
/// distinct tokens cannot grow it past ``capacity`` (it empties when full).
final class VerifiedTokens: Sendable {
    static let capacity = 4096
    static let maxAge: TimeInterval = 60

    struct Entry {
        var claims: GatewayClaims
        /// The session read from the token once (``SocialDomain/Session``), the viewer every use gets.
        var session: Session
        var verifiedAt: Date
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The claims and session of `token` if its signature was verified less than ``maxAge`` before `now`.
    func entry(for token: String, now: Date) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[token] else { return nil }
            guard now.timeIntervalSince(entry.verifiedAt) < Self.maxAge, entry.verifiedAt <= now else {
                entries[token] = nil
                return nil
            }
            return entry
        }
    }

    /// Remembers that `token`'s signature verified at `now`, with its claims and session.
    func remember(_ token: String, claims: GatewayClaims, session: Session, now: Date) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[token] = Entry(claims: claims, session: session, verifiedAt: now)
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
