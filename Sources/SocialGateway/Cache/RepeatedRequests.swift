import Foundation
import SocialDomain
import Synchronization

/// Where in the response cache recent JSON request bodies were answered from, per viewer.
///
/// Why (issue #17): on a cached answer, decoding the body's JSON, finding its document,
/// canonicalizing its variables and hashing its cache key were a tenth of the server's work.
/// Clients repeat the same bodies (a screen asks the same query again), so the service remembers
/// what it looked up for a body and goes straight to the cache the next time
/// (``GatewayService/answerRepeated(body:viewer:)``). The entry
/// is the lookup the service itself made (``GatewayResponse/cacheableQuery``), so the answer is
/// the one the full path would find; when the cache has none, the full path runs as for any
/// request.
///
/// Keyed by the exact bytes and the viewer's id (the cache's scope), so a body never reaches
/// another viewer's answers. Bounded: at most ``capacity`` bodies of at most ``maxBodyBytes``
/// each; when full, it empties (like ``VerifiedTokens``), which costs only the next requests'
/// full path.
final class RepeatedRequests: Sendable {
    static let capacity = 4096
    static let maxBodyBytes = 4096

    struct Key: Hashable, Sendable {
        var viewer: UUID?
        var body: [UInt8]

        /// The body's bytes hashed as one buffer: `[UInt8]`'s own `hash(into:)` feeds the hasher
        /// a byte at a time, which was 2% of a cached card's CPU.
        func hash(into hasher: inout Hasher) {
            hasher.combine(viewer)
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        /// The bodies compared with `memcmp`: `[UInt8]`'s `==` compared them a byte at a time,
        /// and the lookup showed in a cached card's profile.
        static func == (lhs: Key, rhs: Key) -> Bool {
            guard lhs.viewer == rhs.viewer, lhs.body.count == rhs.body.count else { return false }
            return lhs.body.withUnsafeBytes { l in
                rhs.body.withUnsafeBytes { r in l.count == 0 || memcmp(l.baseAddress!, r.baseAddress!, l.count) == 0 }
            }
        }
    }

    /// A reference, so that taking it out of the table under the lock retains one object
    /// rather than each string of its cache key.
    final class Entry: Sendable {
        let query: CacheableQuery
        let operationName: String?

        init(query: CacheableQuery, operationName: String?) {
            self.query = query
            self.operationName = operationName
        }
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// What `body` from `viewer` was looked up as, if it was seen lately.
    func entry(body: [UInt8], viewer: UUID?) -> Entry? {
        guard body.count <= Self.maxBodyBytes else { return nil }
        return entries.withLock { $0[Key(viewer: viewer, body: body)] }
    }

    func remember(body: [UInt8], viewer: UUID?, _ entry: Entry) {
        guard body.count <= Self.maxBodyBytes else { return }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[Key(viewer: viewer, body: body)] = entry
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
