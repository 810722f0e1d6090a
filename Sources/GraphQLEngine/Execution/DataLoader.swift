import Synchronization

/// A per-request batching and caching loader (graphql/dataloader's semantics).
///
/// `load(key)` from many resolvers is collected into one call of the batch
/// function; keys are de-duplicated and memoized for the request, so asking twice
/// costs nothing. Batches dispatch when every running resolver of the execution
/// is waiting (see ``ExecutionScheduler``), or when `maxBatchSize` keys are queued.
///
/// ```swift
/// let profiles = DataLoader<UUID, Profile>(maxBatchSize: 100) { ids in
///     try await store.profiles(ids: ids, viewer: viewer)   // [UUID: Profile]
/// }
/// let profile = try await profiles.load(id)              // nil if absent
/// ```
/// Create one per request: the cache is the request's view of the data.
public final class DataLoader<Key: Hashable & Sendable, Value: Sendable>: BatchDispatching, Sendable {
    public typealias BatchFunction = @Sendable ([Key]) async throws -> [Key: Value]

    private enum Entry {
        case queued([CheckedContinuation<Value?, any Error>])
        case loading([CheckedContinuation<Value?, any Error>])
        case done(Result<Value?, any Error>)
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var queue: [Key] = []
    }

    private let state = Mutex(State())
    private let batch: BatchFunction
    public let maxBatchSize: Int

    /// - Parameters:
    ///   - maxBatchSize: the most keys one batch call receives; more are split.
    ///   - batch: loads many keys at once; keys missing from its result load as nil.
    public init(maxBatchSize: Int = 100, batch: @escaping BatchFunction) {
        precondition(maxBatchSize > 0, "maxBatchSize must be positive")
        self.maxBatchSize = maxBatchSize
        self.batch = batch
    }

    /// The value for `key`, or nil if the batch function did not return one.
    /// - Throws: the batch function's error, for every key of that batch.
    public func load(_ key: Key) async throws -> Value? {
        enqueue([key])
        return try await value(for: key)
    }

    /// The values for `keys`, in order; all are queued before waiting, so they share batches.
    public func loadMany(_ keys: [Key]) async throws -> [Value?] {
        enqueue(keys)
        var values: [Value?] = []
        values.reserveCapacity(keys.count)
        for key in keys { values.append(try await value(for: key)) }
        return values
    }

    /// Queues `keys` for the next batch without waiting for them: a resolver that knows what its
    /// sub-selection will load (``ResolveInfo/selects(_:on:)``) asks for it in the wave of its
    /// own value rather than in the next. The values are kept like any load's; ``peek(_:)`` or a
    /// later ``load(_:)`` finds them. Outside an execution the batch starts at once.
    public func prefetch(_ keys: [Key]) {
        enqueue(keys)
        if let scheduler = ExecutionScheduler.current {
            scheduler.register(self)
        } else {
            dispatchQueued()
        }
    }

    /// The value already loaded for `key`, without loading or waiting: nil when it is not loaded
    /// (or still loading); `.success(nil)` when the batch function returned nothing for it.
    public func peek(_ key: Key) -> Result<Value?, any Error>? {
        state.withLock { state in
            if case .done(let result)? = state.entries[key] { return result }
            return nil
        }
    }

    /// Puts a value in the cache (for example one a mutation just returned).
    public func prime(_ key: Key, _ value: Value?) {
        state.withLock { state in
            if case .done? = state.entries[key] { return }
            if state.entries[key] == nil { state.entries[key] = .done(.success(value)) }
        }
    }

    /// ``prime(_:_:)`` for many keys under one lock: a page of 10 to 50 rows primes each of
    /// them, and 50 pages resuming on two threads at once contended for the lock row by row.
    public func prime(_ pairs: some Sequence<(Key, Value?)>) {
        state.withLock { state in
            for (key, value) in pairs where state.entries[key] == nil {
                state.entries[key] = .done(.success(value))
            }
        }
    }

    /// Forgets `key`, so the next load fetches it again.
    public func clear(_ key: Key) {
        state.withLock { state in
            if case .done? = state.entries[key] { state.entries[key] = nil }
        }
    }

    /// Forgets every loaded key.
    public func clearAll() {
        state.withLock { state in
            state.entries = state.entries.filter { if case .done = $0.value { false } else { true } }
        }
    }

    private func enqueue(_ keys: [Key]) {
        let full: [[Key]] = state.withLock { state in
            for key in keys where state.entries[key] == nil {
                state.entries[key] = .queued([])
                state.queue.append(key)
            }
            var batches: [[Key]] = []
            while state.queue.count >= maxBatchSize {
                batches.append(Array(state.queue.prefix(maxBatchSize)))
                state.queue.removeFirst(maxBatchSize)
                for key in batches.last! { markLoading(key, &state) }
            }
            return batches
        }
        let scheduler = ExecutionScheduler.current
        for keys in full { run(keys, scheduler: scheduler) }
    }

    private func markLoading(_ key: Key, _ state: inout State) {
        if case .queued(let waiters)? = state.entries[key] { state.entries[key] = .loading(waiters) }
    }

    private func value(for key: Key) async throws -> Value? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value?, any Error>) in
            let done: Result<Value?, any Error>? = state.withLock { state in
                switch state.entries[key] {
                case .done(let result)?: return result
                case .queued(let waiters)?: state.entries[key] = .queued(waiters + [continuation])
                case .loading(let waiters)?: state.entries[key] = .loading(waiters + [continuation])
                case nil:
                    state.entries[key] = .queued([continuation])
                    state.queue.append(key)
                }
                return nil
            }
            if let done {
                continuation.resume(with: done)
                return
            }
            if let scheduler = ExecutionScheduler.current {
                scheduler.willWait(on: self)
            } else {
                dispatchQueued()  // outside an execution: nothing to wait for
            }
        }
    }

    /// Starts batch calls for everything queued.
    public func dispatchQueued() {
        takeQueued()()
    }

    /// Takes everything queued (marked loading) and returns what starts its batch calls: the
    /// scheduler takes every loader's queue before it starts any (``ExecutionScheduler``).
    public func takeQueued() -> @Sendable () -> Void {
        let batches: [[Key]] = state.withLock { state in
            guard !state.queue.isEmpty else { return [] }
            let keys = state.queue
            state.queue.removeAll()
            for key in keys { markLoading(key, &state) }
            return stride(from: 0, to: keys.count, by: maxBatchSize).map { Array(keys[$0..<min($0 + maxBatchSize, keys.count)]) }
        }
        guard !batches.isEmpty else { return {} }
        let scheduler = ExecutionScheduler.current
        return { for keys in batches { self.run(keys, scheduler: scheduler) } }
    }

    private func run(_ keys: [Key], scheduler: ExecutionScheduler?) {
        let batch = self.batch
        Task {
            let result: Result<[Key: Value], any Error>
            do {
                result = .success(try await batch(keys))
            } catch {
                result = .failure(error)
            }
            self.complete(keys, result, scheduler: scheduler)
        }
    }

    private func complete(_ keys: [Key], _ result: Result<[Key: Value], any Error>, scheduler: ExecutionScheduler?) {
        let resumptions: [(CheckedContinuation<Value?, any Error>, Result<Value?, any Error>)] = state.withLock { state in
            var resumptions: [(CheckedContinuation<Value?, any Error>, Result<Value?, any Error>)] = []
            for key in keys {
                let value: Result<Value?, any Error> = result.map { $0[key] }
                if case .loading(let waiters)? = state.entries[key] {
                    for waiter in waiters { resumptions.append((waiter, value)) }
                }
                state.entries[key] = .done(value)
            }
            return resumptions
        }
        scheduler?.willResume(resumptions.count)
        for (continuation, value) in resumptions { continuation.resume(with: value) }
    }
}
