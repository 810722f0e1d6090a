import Foundation
import Logging
import SocialDomain
import Synchronization

/// Every live subscription of this replica, fed by the gateway's ``ChangeStream``: it routes each
/// committed activity and change to the subscriptions it concerns, ends them all when the feed is
/// lost (writes in the gap would go untold) and when the server shuts down.
///
/// Routing only queues (``LiveSubscription/offer(_:)``): what a subscriber costs to answer is
/// paid by its own transport's task, never by the writer or the feed. Subscriptions with the same
/// document, variables and audience (``FanOutKey``) share one execution per event
/// (``SharedAnswer``): one viewer's identical subscriptions, or, for a selection that reads the
/// same for everyone allowed to see a post (``SharedEventShape``), every `feedPosts` subscriber,
/// each admitted on their own when the answer is handed to them (``EventAdmission``, from the
/// post's audience read once per fan-out: ``PostAudience``). Each execution goes through the
/// service's execution slots at ``ExecutionSlots/Priority/event``, behind every waiting query,
/// and each delivered event spends the subscription's cost from the viewer's read bucket.
///
/// Bounds (``SubscriptionLimits``): a subscription's cost (`SUBSCRIPTION_MAX_COST`), live
/// subscriptions per viewer over every connection (`SUBSCRIPTIONS_PER_VIEWER`), repeated
/// notifications per actor, target and kind (``NotificationThrottle``). A session that ends
/// (``SocialDomain/EndedSessions``, here or through the change stream) ends its subscriptions
/// with `UNAUTHENTICATED` and calls the closers its connections registered
/// (``watchSession(_:onEnd:)``).
///
/// The stream holds the hub weakly: whoever serves its subscriptions (the HTTP routes) keeps it,
/// and a gateway let go is freed whole, with its store's and cache's files.
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
    let throttle: NotificationThrottle
    /// What `/metrics` shows.
    public let counters = SubscriptionCounters()
    /// The graph read unfiltered, where the operator allowed it (graph memory on): a post's
    /// audience is read from it once per fan-out (``PostAudience``). Nil: every answer per viewer.
    let snapshots: (any GraphSnapshotStore)?
    /// Which authors' relations changed since a ``PostAudience`` was read (its ticket).
    let audienceTickets = Mutex(FillTickets(stripes: 1024))

    struct Registry {
        var byTopic: [SubscriptionTopic: [UInt64: LiveSubscription]] = [:]
        /// The same subscriptions by viewer: their count is bounded, a session end finds them.
        var byViewer: [UUID: [UInt64: LiveSubscription]] = [:]
        var nextID: UInt64 = 1
        /// False from a lost feed until it is back (and until it first connects).
        var feedListening: Bool
        var closed = false
        var connections: [UUID: Int] = [:]
        /// Connections to close when their session ends, by user.
        var watchers: [UUID: [UInt64: SessionWatcher]] = [:]
        var nextWatcher: UInt64 = 1
    }

    struct SessionWatcher {
        let identity: SessionIdentity
        let onEnd: @Sendable () -> Void
    }

    public init(service: GatewayService, changes: ChangeStream, limits: SubscriptionLimits = SubscriptionLimits(), logger: Logger) {
        self.service = service
        self.limits = limits
        self.seesEveryWrite = changes.seesEveryWrite
        self.logger = logger
        self.registry = Mutex(Registry(feedListening: !changes.followsFeed))
        self.throttle = NotificationThrottle(window: .seconds(limits.notificationRepeatWindowSeconds))
        self.snapshots = service.memory == nil ? nil : service.stores.snapshots
        // Weakly: the stream is the service's, and the hub holds the service; a strong capture
        // kept every released gateway's hub, service, store and cache (their files) for good.
        changes.subscribe { [weak self] event in self?.handle(event) }
        service.options.endedSessions.onEnd { [weak self] ends in self?.sessionsEnded(ends) }
    }

    /// The execution slots events run in (metrics).
    public var slots: ExecutionSlots { service.executionSlots }

    /// Subscriptions running now.
    public var activeCount: Int { registry.withLock { $0.byTopic.values.reduce(0) { $0 + $1.count } } }

    /// Routes one event of the change stream. Returns at once: it only queues.
    func handle(_ event: ChangeEvent) {
        switch event {
        case .connected:
            audienceTickets.withLock { $0.invalidateAll() }
            registry.withLock { $0.feedListening = true }
        case .lost:
            audienceTickets.withLock { $0.invalidateAll() }
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
            forgetAudiences(changes)
            deferPostChanges(changes.compactMap { if case .post(let post) = $0 { post } else { nil } })
        case .sessionsEnded, .unreadable:
            // Ended sessions reach ``sessionsEnded(_:)`` through ``EndedSessions`` (the server
            // applies the stream's ends there); an unreadable notification names nothing a
            // subscription could be told.
            break
        }
    }

    /// Marks the authors whose followers, blocks or visibility `changes` changed: a
    /// ``PostAudience`` read before is read again. A change this version does not know, or one
    /// that concerns every profile's visibility, marks them all.
    private func forgetAudiences(_ changes: some Sequence<DataChange>) {
        audienceTickets.withLock { tickets in
            for change in changes {
                switch change {
                case .profile(let id), .followers(let id), .following(let id):
                    tickets.invalidate(id)
                case .followLists:
                    tickets.invalidateAll()
                case .post, .posts, .allFeeds, .comments, .search:
                    break
                case .other(let tag):
                    if let colon = tag.firstIndex(of: ":"), let id = UUID(uuidString: String(tag[tag.index(after: colon)...])) {
                        tickets.invalidate(id)
                    } else {
                        tickets.invalidateAll()
                    }
                }
            }
        }
    }

    /// Reads who may read `author`'s posts (``PostAudience``), under a ticket taken first; nil
    /// when the store failed.
    func readAudience(of author: UUID) async -> PostAudience.Known? {
        guard let snapshots else { return nil }
        let ticket = audienceTickets.withLock { $0.ticket }
        do {
            guard let facts = try await snapshots.viewerFacts(author, limit: limits.sharedAudienceMax),
                  let profile = try await snapshots.snapshotProfiles(ids: [author])[author]
            else { return .unknown(ticket: ticket) }
            return .relations(isPublic: profile.isPublic, followers: facts.followers, blocks: facts.blocks, ticket: ticket)
        } catch {
            return nil
        }
    }

    /// Whether a ``PostAudience`` of `author` read under `ticket` still holds.
    func audienceIsFresh(_ author: UUID, _ ticket: FillTickets.Ticket) -> Bool {
        audienceTickets.withLock { $0.mayKeep(author, readUnder: ticket) }
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
                Self.fanOut(.postActivity(post: post, comment: nil, actor: nil), to: subscriptions)
            }
        }
    }

    /// How long a post's change waits for the activity of the same write.
    static let postChangeDelay = Duration.milliseconds(20)

    private func route(_ activity: Activity) {
        if let post = activity.post, activity.kind == .liked || activity.kind == .commented {
            deferred.withLock { _ = $0.posts.removeValue(forKey: post) }
            if activity.kind == .liked {
                offer(.postActivity(post: post, comment: nil, actor: activity.actor), to: .postActivity(post: post))
            }
        }
        switch activity.kind {
        case .followed, .liked, .followRequested, .followApproved:
            if activity.actor != activity.subject { notify(activity) }
        case .commented:
            if activity.actor != activity.subject { notify(activity) }
            if let post = activity.post {
                offer(.postActivity(post: post, comment: activity.comment, actor: activity.actor), to: .postActivity(post: post))
            }
        case .posted:
            offer(.feedPost(activity), to: .feedPosts)
        }
    }

    /// A notification for the activity's subject, unless the same actor, target and kind was
    /// told within the repeat window (``NotificationThrottle``).
    private func notify(_ activity: Activity) {
        let topic = SubscriptionTopic.notifications(viewer: activity.subject)
        guard registry.withLock({ $0.byTopic[topic] != nil }) else { return }
        guard throttle.admits(activity) else {
            counters.throttled()
            return
        }
        offer(.notification(activity), to: topic)
    }

    private func offer(_ event: SubscriptionEvent, to topic: SubscriptionTopic) {
        let targets = registry.withLock { $0.byTopic[topic].map { Array($0.values) } ?? [] }
        Self.fanOut(event, to: targets)
    }

    /// Queues `event` for each subscription, with one shared answer per ``FanOutKey`` and, for a
    /// post, one read of who may read it (``PostAudience``) for all of them.
    private static func fanOut(_ event: SubscriptionEvent, to subscriptions: [LiveSubscription]) {
        var audience: PostAudience?
        if case .feedPost(let activity) = event { audience = PostAudience(author: activity.actor) }
        var answers: [FanOutKey: SharedAnswer] = [:]
        for subscription in subscriptions {
            let answer: SharedAnswer
            if let shared = answers[subscription.key] {
                answer = shared
            } else {
                answer = SharedAnswer()
                answers[subscription.key] = answer
            }
            subscription.offer(LiveSubscription.Delivery(event: event, answer: answer, audience: audience))
        }
    }

    /// What ``register(viewer:topic:operation:cost:audience:)`` did.
    enum Registration {
        case registered(LiveSubscription)
        /// The hub is closed or the feed is lost.
        case unavailable
        /// The viewer holds ``SubscriptionLimits/subscriptionsPerViewer`` already.
        case tooMany
    }

    /// Adds a subscription, unless the hub is closed, the feed is lost or the viewer holds their
    /// limit of subscriptions.
    func register(
        viewer: Viewer, topic: SubscriptionTopic, operation: SubscriptionOperation, cost: Int, audience: SubscriptionAudience
    ) -> Registration {
        guard let user = viewer.userId else { return .unavailable }
        let registration = registry.withLock { registry -> Registration in
            guard !registry.closed, registry.feedListening else { return .unavailable }
            guard registry.byViewer[user, default: [:]].count < limits.subscriptionsPerViewer else { return .tooMany }
            let subscription = LiveSubscription(
                id: registry.nextID, viewer: viewer, topic: topic, operation: operation,
                queueLimit: limits.queuedEventsPerSubscription, cost: cost, audience: audience, hub: self)
            registry.nextID += 1
            registry.byTopic[topic, default: [:]][subscription.id] = subscription
            registry.byViewer[user, default: [:]][subscription.id] = subscription
            return .registered(subscription)
        }
        switch registration {
        case .registered: counters.started()
        case .tooMany: counters.refusedSubscription()
        case .unavailable: break
        }
        return registration
    }

    /// Forgets an ended subscription (called by ``LiveSubscription/end(_:)``).
    func remove(_ subscription: LiveSubscription, reason: SubscriptionEnd) {
        registry.withLock { registry in
            registry.byTopic[subscription.topic]?[subscription.id] = nil
            if registry.byTopic[subscription.topic]?.isEmpty == true { registry.byTopic[subscription.topic] = nil }
            if let user = subscription.viewer.userId {
                registry.byViewer[user]?[subscription.id] = nil
                if registry.byViewer[user]?.isEmpty == true { registry.byViewer[user] = nil }
            }
        }
        counters.ended(reason)
    }

    /// Live subscriptions of `viewer` now, over every connection.
    public func subscriptionCount(viewer: UUID) -> Int { registry.withLock { $0.byViewer[viewer]?.count ?? 0 } }

    /// Calls `onEnd` once when `identity`'s session ends (a sign-out, a password change or reset,
    /// here or on another replica): a connection closes itself with it. Stop with
    /// ``unwatchSession(_:)`` when the connection ends.
    public func watchSession(_ identity: SessionIdentity, onEnd: @escaping @Sendable () -> Void) -> UInt64 {
        registry.withLock { registry in
            let id = registry.nextWatcher
            registry.nextWatcher += 1
            registry.watchers[identity.user, default: [:]][id] = SessionWatcher(identity: identity, onEnd: onEnd)
            return id
        }
    }

    public func unwatchSession(_ id: UInt64) {
        registry.withLock { registry in
            for (user, watchers) in registry.watchers where watchers[id] != nil {
                registry.watchers[user]?[id] = nil
                if registry.watchers[user]?.isEmpty == true { registry.watchers[user] = nil }
                return
            }
        }
    }

    /// Sessions ended: their subscriptions end with `UNAUTHENTICATED`, their connections' closers
    /// run. Only the users the ends name are looked at.
    func sessionsEnded(_ ends: [SessionEnd]) {
        let ended = service.options.endedSessions
        let users = Set(ends.map { end -> UUID in
            switch end {
            case .session(_, let user, _): user
            case .allSessions(let user, _, _): user
            }
        })
        let (subscriptions, closers) = registry.withLock { registry -> ([LiveSubscription], [@Sendable () -> Void]) in
            var subscriptions: [LiveSubscription] = []
            var closers: [@Sendable () -> Void] = []
            for user in users {
                for subscription in (registry.byViewer[user] ?? [:]).values
                where subscription.session?.hasEnded(in: ended) == true {
                    subscriptions.append(subscription)
                }
                for (id, watcher) in registry.watchers[user] ?? [:] where watcher.identity.hasEnded(in: ended) {
                    closers.append(watcher.onEnd)
                    registry.watchers[user]?[id] = nil
                }
                if registry.watchers[user]?.isEmpty == true { registry.watchers[user] = nil }
            }
            return (subscriptions, closers)
        }
        for subscription in subscriptions { subscription.end(.sessionEnded) }
        for close in closers { close() }
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
    func executed() { add("executed") }
    func skipped() { add("skipped") }
    func throttled() { add("throttled") }
    func refusedConnection() { add("refused_connection") }
    func refusedSubscription() { add("refused_subscription") }

    private func add(_ key: String) { values.withLock { $0[key, default: 0] += 1 } }

    /// Every count by name: `started`, `ended_<reason>`, `delivered` (events sent), `executed`
    /// (executions, one per event and ``FanOutKey``), `skipped` (not visible), `throttled`
    /// (repeated notifications not told), `refused_connection`, `refused_subscription`.
    public var snapshot: [String: Int] { values.withLock { $0 } }
}
