import Foundation
import GraphQLEngine
import GraphQLLanguage
import SocialDomain
import Synchronization

/// One running subscription: what it listens to, its operation, and the bounded queue of events
/// the hub has routed to it and its transport has not taken yet.
///
/// The hub only ever offers events (``offer(_:)`` never waits), so a slow subscriber costs the
/// writer nothing: when its queue is full it is ended with `SLOW_CONSUMER`, never buffered without
/// end. The transport pulls answers one at a time:
///
/// ```swift
/// while case .next(let body) = await subscription.next() { try await send(body) }
/// ```
/// and calls ``cancel()`` when the client leaves.
public final class LiveSubscription: Sendable {
    /// Unique within this process, for logs and the hub's registry.
    public let id: UInt64
    public let viewer: Viewer
    let topic: SubscriptionTopic
    let operation: SubscriptionOperation
    let queueLimit: Int
    /// The subscriptions that share each event's answer with this one.
    let key: FanOutKey
    /// Its selection's estimated cost: what each delivered event spends from the viewer's reads.
    let cost: Int
    /// The session of its token, checked before every event.
    let session: SessionIdentity?
    private let hub: SubscriptionHub
    private let state = Mutex(State())

    struct State {
        var pending: [Delivery] = []
        var waiter: CheckedContinuation<Step, Never>?
        var end: SubscriptionEnd?
        /// The last activities offered, so a repeated report of one event is not told twice.
        var recent: [Activity] = []
        /// A resumed `notifications` subscription's stored notifications, sent before any live
        /// event (issue 54, ``resume(with:told:)``); the queue limit does not count them.
        var catchUp: [Delivery] = []
        /// Keys of recent notifications sent from the store: their live copy, if it comes, is
        /// dropped (once).
        var told: Set<String> = []
    }

    /// An event queued for this subscription, with the answer it shares with the others of its
    /// key and, for a post, who may read it (read once for the whole fan-out).
    struct Delivery: Sendable {
        let event: SubscriptionEvent
        let answer: SharedAnswer
        var audience: PostAudience? = nil
    }

    enum Step: Sendable {
        case event(Delivery)
        case ended(SubscriptionEnd)
        case idle
    }

    init(
        id: UInt64, viewer: Viewer, topic: SubscriptionTopic, operation: SubscriptionOperation, queueLimit: Int, cost: Int,
        audience: SubscriptionAudience, hub: SubscriptionHub
    ) {
        self.id = id
        self.viewer = viewer
        self.topic = topic
        self.operation = operation
        self.queueLimit = queueLimit
        self.cost = cost
        self.session = SessionIdentity(viewer: viewer)
        self.key = FanOutKey(operation, audience: audience)
        self.hub = hub
    }

    /// The next answer to send: an event's response body (`{"data":...}`), or how the
    /// subscription ended. Events the viewer may not see now are skipped here.
    public func next() async -> SubscriptionMessage {
        await next(idleAfter: nil)
    }

    /// ``next()``, or `.idle` when nothing came for `idleAfter` (a stream's keep-alive is due).
    public func next(idleAfter: Duration?) async -> SubscriptionMessage {
        while true {
            switch await nextStep(idleAfter: idleAfter) {
            case .ended(let end):
                return .end(end)
            case .idle:
                return .idle
            case .event(let delivery):
                switch await hub.answer(delivery, for: self) {
                case .next(let body): return .next(body)
                case .skipped: continue
                case .ended(let end):
                    self.end(end)
                    return .end(state.withLock { $0.end } ?? end)
                }
            }
        }
    }

    /// Ends the subscription from the client's side: the hub forgets it and a waiting ``next()``
    /// returns `.end(.cancelled)`.
    public func cancel() { end(.cancelled) }

    /// Ends the subscription from the server's side (a shutdown): a waiting ``next()`` returns
    /// `.end(.completed)`, for the transport to send its `complete`.
    public func complete() { end(.completed) }

    /// Whether it has ended (any reason).
    public var hasEnded: Bool { state.withLock { $0.end != nil } }

    /// Queues an event. Never waits: a full queue ends the subscription (`SLOW_CONSUMER`).
    ///
    /// `postActivity` events of one post coalesce while queued (their answer is the post as it is
    /// when sent), and one that names a new comment replaces one that does not.
    func offer(_ delivery: Delivery) {
        let event = delivery.event
        let overflow = state.withLock { state -> Bool in
            guard state.end == nil else { return false }
            if case .notification(let activity) = event, !state.told.isEmpty,
               state.told.remove(activity.notificationKey) != nil {
                return false
            }
            switch event {
            case .notification(let activity), .feedPost(let activity):
                if state.recent.contains(activity) { return false }
                state.recent.append(activity)
                if state.recent.count > 32 { state.recent.removeFirst() }
            case .postActivity(let post, let comment, let actor):
                // Only events of one actor coalesce: one that is not told (a private actor's)
                // must not swallow one that is.
                if let index = state.pending.firstIndex(where: {
                    if case .postActivity(post, _, actor) = $0.event { true } else { false }
                }) {
                    if comment == nil { return false }
                    if case .postActivity(_, nil, _) = state.pending[index].event {
                        state.pending[index] = delivery
                        return false
                    }
                }
            }
            if let waiter = state.waiter {
                state.waiter = nil
                waiter.resume(returning: .event(delivery))
                return false
            }
            guard state.pending.count < queueLimit else { return true }
            state.pending.append(delivery)
            return false
        }
        if overflow { end(.slowConsumer(limit: queueLimit)) }
    }

    /// Puts a resumed subscription's stored notifications before everything else (issue 54):
    /// `deliveries` oldest first. Live events already queued that are among them are dropped,
    /// and so is a live copy of one of `told` that comes later.
    func resume(with deliveries: [Delivery], told: Set<String>) {
        let sent = Set(deliveries.compactMap { delivery -> String? in
            if case .notification(let activity) = delivery.event { activity.notificationKey } else { nil }
        })
        state.withLock { state in
            guard state.end == nil else { return }
            state.pending.removeAll { delivery in
                if case .notification(let activity) = delivery.event { sent.contains(activity.notificationKey) } else { false }
            }
            state.catchUp = deliveries
            state.told = told
        }
    }

    /// Ends it for `reason` (the first reason wins) and tells the hub.
    func end(_ reason: SubscriptionEnd) {
        let ended = state.withLock { state -> Bool in
            guard state.end == nil else { return false }
            state.end = reason
            state.pending.removeAll()
            state.catchUp.removeAll()
            if let waiter = state.waiter {
                state.waiter = nil
                waiter.resume(returning: .ended(reason))
            }
            return true
        }
        if ended { hub.remove(self, reason: reason) }
    }

    private func nextStep(idleAfter: Duration?) async -> Step {
        let ready = state.withLock { state -> Step? in
            if let end = state.end { return .ended(end) }
            if !state.catchUp.isEmpty { return .event(state.catchUp.removeFirst()) }
            if !state.pending.isEmpty { return .event(state.pending.removeFirst()) }
            return nil
        }
        if let ready { return ready }
        let timer = idleAfter.map { delay in
            Task { [weak self] in
                try await Task.sleep(for: delay)
                self?.wakeIdle()
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Step, Never>) in
                let ready = state.withLock { state -> Step? in
                    if let end = state.end { return .ended(end) }
                    if !state.catchUp.isEmpty { return .event(state.catchUp.removeFirst()) }
                    if !state.pending.isEmpty { return .event(state.pending.removeFirst()) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            self.end(.cancelled)
        }
    }

    /// The idle timer fired: a waiting ``next(idleAfter:)`` returns `.idle`.
    private func wakeIdle() {
        let waiter = state.withLock { state -> CheckedContinuation<Step, Never>? in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .idle)
    }
}

/// What a transport sends for a subscription, one at a time.
public enum SubscriptionMessage: Sendable {
    /// An event's answer: a GraphQL response body (`{"data":...}` and maybe `"errors"`).
    case next([UInt8])
    /// The end: `complete` after errors when it failed, nothing more when the client cancelled.
    case end(SubscriptionEnd)
    /// Nothing happened for the time given to ``LiveSubscription/next(idleAfter:)``.
    case idle
}

/// A subscription operation as it runs for each event: its document, chosen operation and
/// coerced variables, prepared once at subscribe time.
struct SubscriptionOperation: Sendable {
    let document: Document
    let source: Source
    let operationName: String?
    let variables: JSONObject
}
