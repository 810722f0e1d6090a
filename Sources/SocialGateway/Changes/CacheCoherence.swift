import Logging
import ServiceLifecycle
import SocialDomain
import Synchronization

/// Keeps the response cache coherent with writes made anywhere: reads the ``ChangeStream`` fed by
/// the backend's ``SocialDomain/ChangeFeed`` and invalidates the tags of each change.
///
/// The cache answers nothing until the feed is connected, and again from the moment it is lost
/// until it is back: then the whole cache is cleared first, since writes in between were not
/// reported. Invalidations are applied in batches (every tag that arrived while the previous
/// batch was being written), so a burst of writes costs one cache transaction, not one each.
///
/// Shows in `/metrics` as `social_gateway_cache_feed_connected` (1 or 0) and
/// `social_gateway_cache_feed_events_total{event}`, and in `/readyz`'s body as `"cacheFeed"`.
public final class CacheCoherence: Service, Sendable {
    /// Where the feed stands.
    public enum FeedState: String, Sendable {
        case connecting, listening, lost
    }

    private struct Pending: Sendable {
        var tags: Set<String> = []
        var clear = false
        var resume = false
        var working = false
    }

    let cache: any ResponseCaching
    let feed: any ChangeFeed
    let logger: Logger
    private let pending = Mutex(Pending())
    private let stateBox = Mutex(FeedState.connecting)
    private let eventCounts = Mutex<[String: Int]>([:])

    public init(cache: any ResponseCaching, feed: any ChangeFeed, logger: Logger) {
        self.cache = cache
        self.feed = feed
        self.logger = logger
        cache.suspendLookups()
    }

    public var state: FeedState { stateBox.withLock { $0 } }

    /// Events seen per kind (`connected`, `changed`, `unreadable`, `lost`).
    public var counts: [String: Int] { eventCounts.withLock { $0 } }

    /// Follows the feed on its own (tests); the server feeds ``handle(_:)`` from its
    /// ``ChangeStream``, which every reader of the feed shares.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.feed.follow { event in await self.handle(ChangeEvent(event)) }
        }
    }

    /// Takes one event: a loss suspends the cache at once; the rest is written by a background
    /// drainer (exposed for tests that drive the cache without a database).
    public func handle(_ event: ChangeEvent) async {
        switch event {
        case .connected:
            stateBox.withLock { $0 = .listening }
            logger.notice("cache change feed listening; response cache cleared and answering again")
            pending.withLock { $0.resume = true }
        case .changed(_, origin: .thisReplica):
            // The service invalidated its own write before publishing it.
            return
        case .changed(let changes, origin: .feed):
            pending.withLock { $0.tags.formUnion(changes.lazy.map(\.tag)) }
        case .unreadable(let payload):
            logger.error("cache change feed sent a notification this gateway cannot read; clearing the cache",
                         metadata: ["payload": "\(payload)"])
            pending.withLock { $0.clear = true }
        case .lost:
            count("lost")
            stateBox.withLock { $0 = .lost }
            cache.suspendLookups()
            return
        case .happened:
            // Activities come with their tags, in a `changed` of their own.
            return
        case .sessionsEnded:
            // Not the cache's business: sessions are refused by the authenticator, and an answer
            // cached for a viewer holds nothing a new session of theirs may not see.
            return
        }
        let start = pending.withLock { pending -> Bool in
            if pending.working { return false }
            pending.working = true
            return true
        }
        // Counted once the work is registered: a reader who sees the count and ``isIdle`` then
        // knows the event's write is done (counted first, the drain could look idle before it
        // had started).
        switch event {
        case .connected: count("connected")
        case .changed: count("changed")
        case .unreadable: count("unreadable")
        case .lost, .sessionsEnded, .happened: break
        }
        if start { Task { await self.drain() } }
    }

    /// Whether every event handled so far has been written to the cache.
    public var isIdle: Bool { pending.withLock { !$0.working } }

    /// Writes what is pending, one batch at a time, until nothing is: what arrives while a batch
    /// is written goes into the next one. The feed never waits for the cache.
    private func drain() async {
        while true {
            let batch = pending.withLock { pending -> Pending? in
                if pending.tags.isEmpty && !pending.clear && !pending.resume {
                    pending.working = false
                    return nil
                }
                let batch = pending
                pending.tags = []
                pending.clear = false
                pending.resume = false
                return batch
            }
            guard let batch else { return }
            if batch.resume {
                await cache.resumeLookups()
            } else if batch.clear {
                await cache.removeAll()
            } else {
                await cache.invalidate(tags: batch.tags)
            }
        }
    }

    private func count(_ event: String) {
        eventCounts.withLock { $0[event, default: 0] += 1 }
    }
}
