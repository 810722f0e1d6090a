import SocialDomain
import Synchronization

/// The ``ViewerClaims`` of the viewers seen lately, so that a request's store calls (a feed page
/// makes four) and a viewer's next requests do not decode the token's payload and write its JSON
/// again each time.
///
/// Why: building the claims goes through Foundation's `JSONSerialization` twice (the payload
/// read, the claims written), and `perf` put that at 12.6% of the gateway's CPU for an uncached
/// feed page on PostgreSQL (2026-11-28). A viewer's claims depend on nothing but the viewer (its
/// id and its token, both in the key), so an entry never goes stale; a new token is a new key.
///
/// Bounded: when full, it starts over. Tokens expire within the hour and a working set of
/// viewers fills it again at once, so no eviction order is worth keeping.
final class ViewerClaimsCache: Sendable {
    private let entries = Mutex<[Viewer: ViewerClaims]>([:])
    /// The most viewers kept (a token and its claims are about 1 KB together).
    let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// `viewer`'s claims: kept ones when the same viewer came before, else built and kept.
    func claims(for viewer: Viewer) -> ViewerClaims {
        guard case .user = viewer else { return ViewerClaims(viewer) }
        if let kept = entries.withLock({ $0[viewer] }) { return kept }
        let built = ViewerClaims(viewer)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[viewer] = built
        }
        return built
    }

    /// How many viewers' claims are kept (for tests).
    var count: Int { entries.withLock { $0.count } }
}
