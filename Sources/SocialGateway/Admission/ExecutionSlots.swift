import Synchronization

/// A bound on queries executing at once; the rest wait their turn, first come first served,
/// requests before subscription events.
///
/// Executions share the cooperative threads (one per core) with everything else the server
/// does. Sixteen uncached follower graphs at once each queue dozens of jobs there, and a
/// mutation's continuation, or a cache hit's, waits behind them: with the cache full and
/// churning, `updateProfile` took 40-160 ms at p99 though it needs 7 alone (issue #17). Waiting
/// for a slot costs no CPU, so a bound keeps that queue short. Measured (docs/performance/2026-11-25-issue-17-varied-requests-and-writes.md): 2
/// slots brought those writes' p99 to 10-26 ms but cost cheap misses, whose store reads wait on
/// other threads, 30% of their throughput; 4 kept both writes under 35/46 ms for about a tenth
/// of random graphs' throughput, and is the embedded store's default on 2 cores (two per core).
/// A remote store, whose executions mostly wait, gets 64 (`GatewayBackend.concurrentQueries`).
///
/// Mutations never wait here: a write must not queue behind reads.
///
/// Subscription events (``Priority/event``) are the server's own work, not a client's ask: a
/// post told to thousands of subscribers must not make an unrelated query wait (issue 51: one
/// account's 200 event executions made a `{ __typename }` wait 11.3 s). They wait behind every
/// waiting request, and hold at most ``eventLimit`` slots at once (half, at least one), so a
/// request never waits for more than the events already running in the other half.
///
/// How long the oldest waiter of each kind has waited (``oldestWait(_:)``) is what the 503 gate
/// (`QueueWaitGate`, `MAX_QUEUE_WAIT`) reads: a request that would queue behind a backlog older
/// than the bound is refused at once rather than left to wait.
///
/// ```swift
/// await slots.acquire()
/// defer { slots.release() }
/// ```
public final class ExecutionSlots: Sendable {
    /// Who asks for a slot.
    public enum Priority: Sendable, Hashable {
        /// A client's query (HTTP or a socket's): served first.
        case request
        /// A subscription event's execution: served when no request waits, within ``eventLimit``.
        case event
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        let since: ContinuousClock.Instant
    }

    /// A first-in first-out queue whose served entries are dropped in batches.
    private struct Queue {
        var items: [Waiter] = []
        var head = 0

        var count: Int { items.count - head }
        var oldest: ContinuousClock.Instant? { head < items.count ? items[head].since : nil }

        mutating func push(_ waiter: Waiter) { items.append(waiter) }

        mutating func pop() -> Waiter? {
            guard head < items.count else { return nil }
            let next = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= items.count {
                // A queue that never empties (sustained overload) would otherwise keep every
                // continuation it ever held: drop the served half, in order.
                items.removeFirst(head)
                head = 0
            }
            return next
        }
    }

    private struct State {
        var free: Int
        var requests = Queue()
        var events = Queue()
        var eventsRunning = 0
    }

    /// Slots in all; 0 means no bound.
    public let limit: Int
    /// The most slots subscription events hold at once: half of ``limit``, at least one.
    public let eventLimit: Int
    private let state: Mutex<State>

    /// - Parameter limit: executions at once; 0 for no bound.
    public init(limit: Int) {
        self.limit = max(0, limit)
        self.eventLimit = max(1, max(0, limit) / 2)
        state = Mutex(State(free: max(0, limit)))
    }

    /// Waits for a free slot and takes it (at once when there is no bound).
    public func acquire(_ priority: Priority = .request) async {
        guard limit > 0 else { return }
        if state.withLock({ Self.take(&$0, priority, eventLimit: eventLimit) }) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                // A slot may have been freed between the two locks.
                if Self.take(&state, priority, eventLimit: eventLimit) { return true }
                let waiter = Waiter(continuation: continuation, since: .now)
                switch priority {
                case .request: state.requests.push(waiter)
                case .event: state.events.push(waiter)
                }
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Takes a slot at once if one is free to `priority` (and no request waits, for an event).
    private static func take(_ state: inout State, _ priority: Priority, eventLimit: Int) -> Bool {
        guard state.free > 0 else { return false }
        switch priority {
        case .request:
            guard state.requests.count == 0 else { return false }
        case .event:
            guard state.requests.count == 0, state.events.count == 0, state.eventsRunning < eventLimit else { return false }
            state.eventsRunning += 1
        }
        state.free -= 1
        return true
    }

    /// Gives back a slot taken with `priority`: to the longest waiting request if there is one,
    /// else to the longest waiting event while events hold fewer than ``eventLimit``.
    public func release(_ priority: Priority = .request) {
        guard limit > 0 else { return }
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if priority == .event { state.eventsRunning -= 1 }
            if let waiter = state.requests.pop() { return waiter.continuation }
            if state.eventsRunning < eventLimit, let waiter = state.events.pop() {
                state.eventsRunning += 1
                return waiter.continuation
            }
            state.free += 1
            return nil
        }
        next?.resume()
    }

    /// Executions waiting for a slot now, requests and events (metrics and tests).
    public var waiting: Int { state.withLock { $0.requests.count + $0.events.count } }

    /// Executions of `priority` waiting for a slot now.
    public func waiting(_ priority: Priority) -> Int {
        state.withLock { priority == .request ? $0.requests.count : $0.events.count }
    }

    /// How long the longest waiting execution of `priority` has waited; nil when none waits.
    public func oldestWait(_ priority: Priority) -> Duration? {
        let oldest = state.withLock { priority == .request ? $0.requests.oldest : $0.events.oldest }
        return oldest.map { ContinuousClock.now - $0 }
    }

    /// Runs `body` in a slot.
    public func withSlot<T: Sendable>(_ priority: Priority = .request, _ body: () async -> T) async -> T {
        await acquire(priority)
        defer { release(priority) }
        return await body()
    }
}
