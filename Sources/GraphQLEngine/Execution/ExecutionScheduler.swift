import Synchronization

/// Decides when DataLoaders dispatch their batches during one execution.
///
/// JavaScript's DataLoader batches everything requested in one tick of the event
/// loop; Swift has no such tick. Instead the executor counts the resolvers that
/// can still make progress. A resolver waiting on a loader cannot; when none can
/// (the count reaches zero), every key the query's current level will ask for has
/// been asked for, and the loaders dispatch. A depth-2 follower graph therefore
/// costs one store call per level and loader, deterministically, with no timers.
public final class ExecutionScheduler: Sendable {
    /// The scheduler of the execution the current task belongs to.
    @TaskLocal public static var current: ExecutionScheduler?

    private struct State {
        var running = 0
        var loaders: [ObjectIdentifier: any BatchDispatching] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// `count` resolver tasks are about to start (their results are not yet completed).
    ///
    /// Counted before the first of them is added: a task may start, queue its key and wait
    /// at once, and if its siblings were not yet counted the running count would touch
    /// zero and dispatch a batch holding only that key.
    func resolversStarting(_ count: Int) {
        state.withLock { $0.running += count }
    }

    /// A resolver's result has been completed.
    func resolverFinished() {
        let ready = state.withLock { state -> [any BatchDispatching] in
            state.running -= 1
            return state.running == 0 ? Array(state.loaders.values) : []
        }
        Self.dispatch(ready)
    }

    /// A resolver starts waiting on `loader`; may dispatch if it was the last one running.
    func willWait(on loader: any BatchDispatching) {
        let ready = state.withLock { state -> [any BatchDispatching] in
            state.loaders[ObjectIdentifier(loader)] = loader
            state.running -= 1
            return state.running <= 0 ? Array(state.loaders.values) : []
        }
        Self.dispatch(ready)
    }

    /// `loader` has keys queued that no resolver waits on yet (``DataLoader/prefetch(_:)``): it
    /// dispatches with the others when every running resolver waits.
    func register(_ loader: any BatchDispatching) {
        state.withLock { $0.loaders[ObjectIdentifier(loader)] = loader }
    }

    /// `count` waiters are about to resume with their values.
    func willResume(_ count: Int) {
        state.withLock { $0.running += count }
    }

    /// Takes every loader's queue, then starts their batches: in that order, so that one
    /// loader's batch, answering at once, cannot resume resolvers whose next level's keys reach
    /// another loader's queue before it was taken (that level's keys would then ride with this
    /// one's, a level late: seen when the dispatching thread was preempted between two loaders).
    private static func dispatch(_ loaders: [any BatchDispatching]) {
        guard !loaders.isEmpty else { return }
        let starts = loaders.map { $0.takeQueued() }
        for start in starts { start() }
    }
}

/// A loader the scheduler can ask to dispatch what it has queued.
public protocol BatchDispatching: AnyObject, Sendable {
    /// Takes what is queued and returns what starts its batch calls (nothing starts before).
    func takeQueued() -> @Sendable () -> Void
}
