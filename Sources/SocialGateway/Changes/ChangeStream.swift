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
    /// Whether every committed write reaches the stream: a feed reports them all, and a store
    /// written only through this process has its writes published by the service.
    public let seesEveryWrite: Bool
    private let subscribers = Mutex<[Subscriber]>([])

    /// - Parameters:
    ///   - feed: the backend's change feed, if it has one.
    ///   - writesOnlyThroughThisProcess: the store has no other writer (the embedded store), so
    ///     the service's own writes are every write. False for a remote store without a feed
    ///     (Supabase without `DATABASE_URL`): other replicas' writes never reach this stream, and
    ///     subscriptions refuse to start there rather than miss them.
    public init(feed: (any ChangeFeed)?, writesOnlyThroughThisProcess: Bool = true) {
        self.feed = feed
        self.seesEveryWrite = feed != nil || writesOnlyThroughThisProcess
    }

    /// Whether events come from a backend's feed (then ``run()`` must run) rather than from this
    /// replica's own writes.
    public var followsFeed: Bool { feed != nil }

    /// Adds a reader of every event from now on; subscribe before the stream runs to miss none.
    public func subscribe(_ subscriber: @escaping Subscriber) {
        subscribers.withLock { $0.append(subscriber) }
    }

    /// A write this replica committed. Published only without a feed: a feed reports the write
    /// itself, and twice would be once too many for a subscriber counting events.
    ///
    /// Every reader's handler must return at once (queue the work, never do it inline): the
    /// writer awaits this call before it answers.
    public func publish(_ changes: Set<DataChange>, activities: [Activity] = []) async {
        guard feed == nil else { return }
        if !changes.isEmpty { await deliver(.changed(changes, origin: .thisReplica)) }
        if !activities.isEmpty { await deliver(.happened(activities, origin: .thisReplica)) }
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
