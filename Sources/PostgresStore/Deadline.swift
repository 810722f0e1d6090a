import Synchronization

/// The operation's result, or ``DeadlinePassed`` once `limit` has passed. Keeps a call from
/// waiting on a database that is down longer than the statement timeout a slow statement would
/// get.
///
/// The deadline holds even when the operation does not answer cancellation: the caller is
/// resumed when the limit passes, the operation is cancelled and left to end in the background.
/// (A task group would have to wait for it, so a connect or read stuck on a dead socket would
/// hold the caller past its deadline; that is what a deadline is for.) Cancelling the caller
/// cancels the operation and ends the wait with `CancellationError`.
func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            race.start(continuation, limit: limit, operation)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// A database call that took longer than its deadline.
struct DeadlinePassed: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "no answer within \(limit)" }
}

/// The first of the operation, the timer and the caller's cancellation to finish resumes the
/// caller, once; the two tasks still running are cancelled.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        /// Set when the race ended before `start` (the caller was cancelled first).
        var early: Result<T, any Error>?
        var tasks: [Task<Void, Never>] = []
        var finished = false
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>, limit: Duration,
               _ operation: @escaping @Sendable () async throws -> T) {
        let early: Result<T, any Error>? = state.withLock { state in
            if state.finished { return state.early }
            state.continuation = continuation
            return nil
        }
        if let early { return continuation.resume(with: early) }
        let work = Task {
            do { self.finish(.success(try await operation())) } catch { self.finish(.failure(error)) }
        }
        let timer = Task {
            do { try await Task.sleep(for: limit) } catch { return }
            self.finish(.failure(DeadlinePassed(limit: limit)))
        }
        let cancelNow = state.withLock { state in
            state.tasks = [work, timer]
            return state.finished
        }
        if cancelNow { work.cancel(); timer.cancel() }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, tasks): (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) = state.withLock { state in
            guard !state.finished else { return (nil, []) }
            state.finished = true
            if state.continuation == nil { state.early = result }
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }
}
