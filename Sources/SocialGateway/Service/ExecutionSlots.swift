import Synchronization

/// A bound on queries executing at once; the rest wait their turn, first come first served.
///
/// Executions share the cooperative threads (one per core) with everything else the server
/// does. Sixteen uncached follower graphs at once each queue dozens of jobs there, and a
/// mutation's continuation, or a cache hit's, waits behind them: with the cache full and
/// churning, `updateProfile` took 40-160 ms at p99 though it needs 7 alone (issue #17). Waiting
/// for a slot costs no CPU, so a bound keeps that queue short. Measured (docs/SERVER.md): 2
/// slots brought those writes' p99 to 10-26 ms but cost cheap misses, whose store reads wait on
/// other threads, 30% of their throughput; 4 kept both writes under 35/46 ms for about a tenth
/// of random graphs' throughput, and is the embedded store's default on 2 cores (two per core).
/// A remote store, whose executions mostly wait, gets 64 (`GatewayBackend.concurrentQueries`).
///
/// Mutations never wait here: a write must not queue behind reads.
///
/// ```swift
/// await slots.acquire()
/// defer { slots.release() }
/// ```
public final class ExecutionSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0
    }

    /// Slots in all; 0 means no bound.
    public let limit: Int
    private let state: Mutex<State>

    /// - Parameter limit: executions at once; 0 for no bound.
    public init(limit: Int) {
        self.limit = max(0, limit)
        state = Mutex(State(free: max(0, limit)))
    }

    /// Waits for a free slot and takes it (at once when there is no bound).
    public func acquire() async {
        guard limit > 0 else { return }
        let taken = state.withLock { state -> Bool in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
        if taken { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                // A slot may have been freed between the two locks.
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Gives back a slot: to the longest waiter if there is one.
    public func release() {
        guard limit > 0 else { return }
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.head < state.waiters.count else {
                state.free += 1
                return nil
            }
            let next = state.waiters[state.head]
            state.head += 1
            if state.head == state.waiters.count {
                state.waiters.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head >= 1024, state.head * 2 >= state.waiters.count {
                // A queue that never empties (sustained overload) would otherwise keep every
                // continuation it ever held: drop the served half, in order.
                state.waiters.removeFirst(state.head)
                state.head = 0
            }
            return next
        }
        next?.resume()
    }

    /// Executions waiting for a slot now (metrics and tests).
    public var waiting: Int { state.withLock { $0.waiters.count - $0.head } }

    /// Runs `body` in a slot.
    public func withSlot<T: Sendable>(_ body: () async -> T) async -> T {
        await acquire()
        defer { release() }
        return await body()
    }
}
