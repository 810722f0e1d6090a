import Foundation
import SocialDomain
import Synchronization

/// Viewers' relations to profiles read lately, each with the cache token taken before it was
/// read: one is used again only while nothing at all has been invalidated since
/// (``ResponseCaching/nothingInvalidated(since:)``), so it is exactly as fresh as a cached answer.
///
/// Why: a shared card (``GatewayService``'s shared cards) reads the viewer's relation before its
/// lookup; without this, a viewer's repeated card (the common case of a client's screen) would
/// pay that store read on every hit. Every write that changes a relation invalidates some tag,
/// which moves the cache's epoch, so no relation outlives a write; a lost and resumed change feed
/// clears the cache, which moves it too.
///
/// Bounded: at most ``capacity`` relations; when full it empties (like ``RepeatedRequests``),
/// which costs only the next requests' reads.
final class KnownRelations: Sendable {
    struct Key: Hashable, Sendable {
        let viewer: UUID
        let profile: ProfileKey
    }

    struct Known: Sendable {
        let relation: ViewerRelation?
        let token: CacheToken
    }

    static let capacity = 10_000
    private let known = Mutex<[Key: Known]>([:])

    /// The relation read under `token`, if nothing was invalidated since.
    func relation(_ key: Key, cache: any ResponseCaching) -> Known? {
        guard let entry = known.withLock({ $0[key] }), cache.nothingInvalidated(since: entry.token) else { return nil }
        return entry
    }

    /// Remembers a relation read after `token` was taken.
    func remember(_ key: Key, _ known: Known) {
        self.known.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = known
        }
    }
}
