import Foundation
import Logging
import SocialDomain
import Synchronization

/// Every live subscription of this replica, fed by the gateway's ``ChangeStream``: it routes each
/// committed activity and change to the subscriptions it concerns, ends them all when the feed is
/// lost (writes in the gap would go untold) and when the server shuts down.
///
/// Routing only queues (``LiveSubscription/offer(_:)``): what a subscriber costs to answer is
/// paid by its own transport's task, never by the writer or the feed. Each answer goes through the
/// service's execution slots, so a fan-out to thousands of subscribers queues there rather than
/// running thousands of executions at once.
///
/// ```swift
/// let hub = SubscriptionHub(service: service, changes: stream)
/// switch await hub.subscribe(request) {
/// case .started(let subscription): while case .next(let body) = await subscription.next() { ... }
/// case .refused(let response): send(response.body)
/// case .notASubscription: send(await service.execute(request).body)
/// }
/// ```
public final class SubscriptionHub: Sendable {
    let service: GatewayService
    public let limits: SubscriptionLimits
    /// Whether every committed write reaches this replica's stream (``ChangeStream/seesEveryWrite``).
    let seesEveryWrite: Bool
    let logger: Logger
    private let registry: Mutex<Registry>
    private let deferred = Mutex(DeferredPostChanges())
    /// What `/metrics` shows.
    public let counters = SubscriptionCounters()

    struct Registry {
        var byTopic: [SubscriptionTopic: [UInt64: LiveSubscription]] = [:]
        var nextID: UInt64 = 1
        /// False from a lost feed until it is back (and until it first connects).
        var feedListening: Bool
        var closed = false
        var connections: [UUID: Int] = [:]
    }

    public init(service: GatewayService, changes: ChangeStream, limits: SubscriptionLimits = SubscriptionLimits(), logger: Logger) {
        self.service = service
        self.limits = limits
        self.seesEveryWrite = changes.seesEveryWrite
        self.logger = logger
        self.registry = Mutex(Registry(feedListening: !changes.followsFeed))
        changes.subscribe { [self] event in self.handle(event) }
    }

    /// Subscriptions running now.
    public var activeCount: Int { registry.withLock { $0.byTopic.values.reduce(0) { $0 + $1.count } } }

    /// Routes one event of the change stream. Returns at once: it only queues.
    func handle(_ event: ChangeEvent) {
        switch event {
        case .connected:
            registry.withLock { $0.feedListening = true }
        case .lost:
            let all = registry.withLock { registry -> [LiveSubscription] in
                registry.feedListening = false
                return registry.byTopic.values.flatMap(\.values)
            }
            if !all.isEmpty {
                logger.warning("change feed lost: ending every live subscription", metadata: ["subscriptions": "\(all.count)"])
            }
            for subscription in all { subscription.end(.feedLost) }
        case .happened(let activities, _):
            for activity in activities where activity.isWellFormed { route(activity) }
        case .changed(let changes, _):
            deferPostChanges(changes.compactMap { if case .post(let post) = $0 { post } else { nil } })
        case .sessionsEnded, .unreadable:
            // Ended sessions close their own connections at the transport (their tokens are
            // refused); an unreadable notification names nothing a subscription could be told.
            break
        }
    }

    /// A post's change tells its `postActivity` subscribers, unless the activity of the same
    /// write (a like, a comment) follows at once and tells them itself: each write reports its
    /// tags first, then its activity, so a comment would otherwise be told twice (the counts,
    /// then the comment). Changes without an activity (an unlike, a deleted comment, an edit)
    /// are told after ``postChangeDelay``.
    private func deferPostChanges(_ posts: [UUID]) {
        // The subscribers are those of the moment of the change: one who subscribes meanwhile
        // must not hear of a write made before.
        let targets = registry.withLock { registry in
            posts.compactMap { post in registry.byTopic[.postActivity(post: post)].map { (post, Array($0.values)) } }
        }
        guard !targets.isEmpty else { return }
        let schedule = deferred.withLock { deferred -> Bool in
            for (post, subscriptions) in targets { deferred.posts[post, default: []] += subscriptions }
            if deferred.scheduled { return false }
            deferred.scheduled = true
            return true
        }
        guard schedule else { return }
        Task {
            try? await Task.sleep(for: Self.postChangeDelay)
            let posts = deferred.withLock { deferred -> [UUID: [LiveSubscription]] in
                defer { deferred = DeferredPostChanges() }
                return deferred.posts
            }
            for (post, subscriptions) in posts {
                for subscription in subscriptions { subscription.offer(.postActivity(post: post, comment: nil)) }
            }
        }
    }

    /// How long a post's change waits for the activity of the same write.
    static let postChangeDelay = Duration.milliseconds(20)

    private func route(_ activity: Activity) {
        if let post = activity.post, activity.kind == .liked || activity.kind == .commented {
            deferred.withLock { _ = $0.posts.removeValue(forKey: post) }
            if activity.kind == .liked {
                offer(.postActivity(post: post, comment: nil), to: .postActivity(post: post))
            }
        }
        switch activity.kind {
        case .followed, .liked:
            if activity.actor != activity.subject {
                offer(.notification(activity), to: .notifications(viewer: activity.subject))
            }
        case .commented:
            if activity.actor != activity.subject {
                offer(.notification(activity), to: .notifications(viewer: activity.subject))
            }
            if let post = activity.post {
                offer(.postActivity(post: post, comment: activity.comment), to: .postActivity(post: post))
            }
        case .posted:
            offer(.feedPost(activity), to: .feedPosts)
        }
    }

    private func offer(_ event: SubscriptionEvent, to topic: SubscriptionTopic) {
        let targets = registry.withLock { $0.byTopic[topic].map { Array($0.values) } ?? [] }
        for subscription in targets { subscription.offer(event) }
    }

    /// Adds a subscription, unless the hub is closed or the feed is lost.
    func register(viewer: Viewer, topic: SubscriptionTopic, operation: SubscriptionOperation) -> LiveSubscription? {
        let subscription = registry.withLock { registry -> LiveSubscription? in
            guard !registry.closed, registry.feedListening else { return nil }
            let subscription = LiveSubscription(
                id: registry.nextID, viewer: viewer, topic: topic, operation: operation,
                queueLimit: limits.queuedEventsPerSubscription, hub: self)
            registry.nextID += 1
            registry.byTopic[topic, default: [:]][subscription.id] = subscription
            return subscription
        }
        if subscription != nil { counters.started() }
        return subscription
    }

    /// Forgets an ended subscription (called by ``LiveSubscription/end(_:)``).
    func remove(_ subscription: LiveSubscription, reason: SubscriptionEnd) {
        registry.withLock { registry in
            registry.byTopic[subscription.topic]?[subscription.id] = nil
            if registry.byTopic[subscription.topic]?.isEmpty == true { registry.byTopic[subscription.topic] = nil }
        }
        counters.ended(reason)
    }

    /// Whether live updates can start now: not after shutdown began, not while the feed is lost.
    var isAccepting: Bool { registry.withLock { !$0.closed && $0.feedListening } }

    /// Takes one of the viewer's streaming connections (``SubscriptionLimits/connectionsPerViewer``);
    /// false when they hold them all. Give it back with ``releaseConnection(viewer:)``.
    public func acquireConnection(viewer: UUID) -> Bool {
        let taken = registry.withLock { registry -> Bool in
            let held = registry.connections[viewer, default: 0]
            guard held < limits.connectionsPerViewer else { return false }
            registry.connections[viewer] = held + 1
            return true
        }
        if !taken { counters.refusedConnection() }
        return taken
    }

    public func releaseConnection(viewer: UUID) {
        registry.withLock { registry in
            let held = registry.connections[viewer, default: 0] - 1
            registry.connections[viewer] = held > 0 ? held : nil
        }
    }

    /// Completes every subscription and refuses new ones (a graceful shutdown).
    public func shutdown() {
        let all = registry.withLock { registry -> [LiveSubscription] in
            registry.closed = true
            return registry.byTopic.values.flatMap(\.values)
        }
        for subscription in all { subscription.end(.completed) }
    }
}

/// Posts whose change waits for the activity of the same write (``SubscriptionHub``).
struct DeferredPostChanges {
    /// Each post with the subscriptions that were listening when it changed.
    var posts: [UUID: [LiveSubscription]] = [:]
    var scheduled = false
}

/// Counts for `/metrics`: subscriptions started and ended (by why), events answered and skipped.
public final class SubscriptionCounters: Sendable {
    private let values = Mutex<[String: Int]>([:])

    func started() { add("started") }
    func ended(_ reason: SubscriptionEnd) {
        switch reason {
        case .completed: add("ended_completed")
        case .cancelled: add("ended_cancelled")
        case .failed(let errors):
            add("ended_" + (errors.first?.extensions?["code"]?.stringValue?.lowercased() ?? "failed"))
        }
    }
    func delivered() { add("delivered") }
    func skipped() { add("skipped") }
    func refusedConnection() { add("refused_connection") }

    private func add(_ key: String) { values.withLock { $0[key, default: 0] += 1 } }

    /// Every count by name (`started`, `ended_<reason>`, `delivered`, `skipped`, `refused_connection`).
    public var snapshot: [String: Int] { values.withLock { $0 } }
}
