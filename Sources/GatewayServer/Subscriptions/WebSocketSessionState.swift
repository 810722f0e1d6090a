import Foundation
import SocialDomain
import SocialGateway
import Synchronization

/// What one `graphql-transport-ws` connection knows, shared by its reader, its timer and its
/// subscriptions' tasks.
final class WebSocketSessionState: Sendable {
    private struct State {
        var initReceived = false
        var viewer: Viewer?
        var expiresAt: Date?
        /// The viewer whose connection count this connection holds.
        var heldConnection: UUID?
        /// The session of a signed-in viewer's token, and the hub's watch on its end.
        var session: SessionIdentity?
        var sessionWatcher: UInt64?
        var operations: [String: Operation] = [:]
        var lastActivity: ContinuousClock.Instant
    }

    private enum Operation {
        case starting
        case running(LiveSubscription)
        /// The client completed it before it started: it must not start.
        case completedByClient
    }

    enum Reservation { case reserved, duplicate, full }

    let opened: ContinuousClock.Instant
    private let state: Mutex<State>

    init() {
        let now = ContinuousClock.now
        opened = now
        state = Mutex(State(lastActivity: now))
    }

    /// The first `connection_init`; false for any later one (closed with 4429).
    func beginInit() -> Bool {
        state.withLock { state in
            if state.initReceived { return false }
            state.initReceived = true
            return true
        }
    }

    /// The connection is acknowledged: its idle time counts from now (pings never reset it;
    /// only operations do, ``reserve(_:limit:)`` and ``finish(_:)``).
    func acknowledge(viewer: Viewer, expiresAt: Date?, heldConnection: UUID?, session: SessionIdentity?) {
        state.withLock { state in
            state.viewer = viewer
            state.expiresAt = expiresAt
            state.heldConnection = heldConnection
            state.session = session
            state.lastActivity = .now
        }
    }

    func watching(_ watcher: UInt64) { state.withLock { $0.sessionWatcher = watcher } }

    /// The session of the connection's token (signed in only).
    var session: SessionIdentity? { state.withLock { $0.session } }

    /// The hub's watch on the session's end, to stop when the connection ends.
    var sessionWatcher: UInt64? { state.withLock { $0.sessionWatcher } }

    /// The viewer once the connection is acknowledged; nil before (a `subscribe` then is 4401).
    var acknowledgedViewer: Viewer? { state.withLock { $0.viewer } }

    /// The viewer whose connection count to give back when the connection ends.
    var heldConnection: UUID? { state.withLock { $0.heldConnection } }

    /// Takes an operation id for a `subscribe`.
    func reserve(_ id: String, limit: Int) -> Reservation {
        state.withLock { state in
            if state.operations[id] != nil { return .duplicate }
            if state.operations.count >= limit { return .full }
            state.operations[id] = .starting
            state.lastActivity = .now
            return .reserved
        }
    }

    /// Records the running subscription of `id`; false when the client completed it meanwhile.
    func attach(_ subscription: LiveSubscription, to id: String) -> Bool {
        state.withLock { state in
            guard case .starting? = state.operations[id] else { return false }
            state.operations[id] = .running(subscription)
            return true
        }
    }

    /// The client's `complete`: ends the subscription (nothing is sent back for it).
    func complete(_ id: String) {
        let running = state.withLock { state -> LiveSubscription? in
            switch state.operations[id] {
            case .running(let subscription)?:
                return subscription
            case .starting?:
                state.operations[id] = .completedByClient
                return nil
            case .completedByClient?, nil:
                return nil
            }
        }
        running?.cancel()
    }

    /// The operation of `id` is over: its id may be used again.
    func finish(_ id: String) {
        state.withLock { state in
            state.operations[id] = nil
            state.lastActivity = .now
        }
    }

    /// Ends every operation (the connection is closing); the ids that were running or starting.
    @discardableResult
    func cancelAll() -> [String] {
        let (ids, running) = state.withLock { state -> ([String], [LiveSubscription]) in
            var running: [LiveSubscription] = []
            for (id, operation) in state.operations {
                switch operation {
                case .running(let subscription): running.append(subscription)
                case .starting: state.operations[id] = .completedByClient
                case .completedByClient: break
                }
            }
            return (Array(state.operations.keys), running)
        }
        for subscription in running { subscription.cancel() }
        return ids
    }

    /// What the timer decides on.
    struct Timers {
        var acknowledged: Bool
        /// Acknowledged without a signed-in viewer.
        var anonymous: Bool
        var expiresAt: Date?
        /// Since when the connection has had nothing to do (no operation), or nil while it has.
        var idleSince: ContinuousClock.Instant?
    }

    var timers: Timers {
        state.withLock { state in
            Timers(
                acknowledged: state.viewer != nil, anonymous: state.viewer != nil && state.viewer?.userId == nil,
                expiresAt: state.expiresAt,
                idleSince: state.operations.isEmpty ? state.lastActivity : nil)
        }
    }
}
