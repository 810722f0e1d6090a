import ServiceLifecycle
import SocialDomain
import Synchronization

/// The one reader of the backend's ``SocialDomain/ChangeFeed``: it follows the feed once (one
/// `LISTEN` connection per replica) and hands every event, in order, to each subscriber: the
/// response cache's ``CacheCoherence`` and the ended-session registry today.
///
/// ```swift
/// let stream = ChangeStream(feed: feed)
/// stream.subscribe { event in await coherence.handle(event) }
/// background.add(stream)
/// ```
public final class ChangeStream: Service, Sendable {
    public typealias Subscriber = @Sendable (ChangeFeedEvent) async -> Void

    let feed: any ChangeFeed
    private let subscribers = Mutex<[Subscriber]>([])

    public init(feed: any ChangeFeed) { self.feed = feed }

    /// Adds a reader of every event from now on; subscribe before the stream runs to miss none.
    public func subscribe(_ subscriber: @escaping Subscriber) {
        subscribers.withLock { $0.append(subscriber) }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.feed.follow { event in
                for subscriber in self.subscribers.withLock({ $0 }) { await subscriber(event) }
            }
        }
    }
}
