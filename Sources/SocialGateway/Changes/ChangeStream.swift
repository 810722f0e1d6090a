import ServiceLifecycle
import SocialDomain
import Synchronization

/// The gateway's one stream of changes, on every store: each reader (the response cache's
/// ``CacheCoherence``, the ended-session registry, subscriptions next) subscribes once and gets
/// every ``ChangeEvent`` in order.
///
/// Where the backend has a ``SocialDomain/ChangeFeed`` (PostgreSQL's `LISTEN`, Supabase with a
/// `DATABASE_URL`), the stream follows it, one connection per replica, and every write made
/// anywhere arrives from it, this replica's included. Where it has none (the embedded store,
/// written only through this process), the service publishes its own committed writes
/// (``publish(_:)``), so a reader sees the same events whichever store runs.
///
/// ```swift
/// let stream = ChangeStream(feed: backend.changeFeed)
/// stream.subscribe { event in await coherence.handle(event) }
/// if stream.followsFeed { background.add(stream) }
/// ```
public final class ChangeStream: Service, Sendable {
    public typealias Subscriber = @Sendable (ChangeEvent) async -> Void

    let feed: (any ChangeFeed)?
    private let subscribers = Mutex<[Subscriber]>([])

    public init(feed: (any ChangeFeed)?) { self.feed = feed }

    /// Whether events come from a backend's feed (then ``run()`` must run) rather than from this
    /// replica's own writes.
    public var followsFeed: Bool { feed != nil }

    /// Adds a reader of every event from now on; subscribe before the stream runs to miss none.
    public func subscribe(_ subscriber: @escaping Subscriber) {
        subscribers.withLock { $0.append(subscriber) }
    }

    /// A write this replica committed. Published only without a feed: a feed reports the write
    /// itself, and twice would be once too many for a subscriber counting events.
    public func publish(_ changes: Set<DataChange>) async {
        guard feed == nil, !changes.isEmpty else { return }
        await deliver(.changed(changes, origin: .thisReplica))
    }

    /// Follows the feed until a graceful shutdown (returns at once without one).
    public func run() async throws {
        guard let feed else { return }
        await cancelWhenGracefulShutdown {
            await feed.follow { event in await self.deliver(ChangeEvent(event)) }
        }
    }

    private func deliver(_ event: ChangeEvent) async {
        for subscriber in subscribers.withLock({ $0 }) { await subscriber(event) }
    }
}
