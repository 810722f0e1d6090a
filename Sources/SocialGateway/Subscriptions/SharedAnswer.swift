import Synchronization

/// One event's answer for every subscription of one ``FanOutKey``: computed once, by whichever
/// subscription's transport asks first, and handed to the others as they ask (or at once when it
/// is ready). It lives as long as a queued event refers to it: no table to expire.
///
/// ```swift
/// let body = await answer.value { await execute(event) }   // the first caller runs it
/// ```
final class SharedAnswer: Sendable {
    private enum State {
        case pending
        case computing([CheckedContinuation<[UInt8]?, Never>])
        case done([UInt8]?)
    }

    private let state = Mutex(State.pending)

    /// The answer (nil: not for this audience now), running `compute` if nobody has yet.
    func value(_ compute: () async -> [UInt8]?) async -> [UInt8]? {
        enum Role { case compute, ready([UInt8]?), wait }
        let role = state.withLock { state -> Role in
            switch state {
            case .pending:
                state = .computing([])
                return .compute
            case .computing: return .wait
            case .done(let body): return .ready(body)
            }
        }
        switch role {
        case .ready(let body):
            return body
        case .compute:
            let body = await compute()
            let waiters = state.withLock { state -> [CheckedContinuation<[UInt8]?, Never>] in
                defer { state = .done(body) }
                if case .computing(let waiters) = state { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume(returning: body) }
            return body
        case .wait:
            return await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> [UInt8]?? in
                    switch state {
                    case .computing(var waiters):
                        waiters.append(continuation)
                        state = .computing(waiters)
                        return nil
                    case .done(let body): return .some(body)
                    case .pending: return .some(nil)   // not reached: computing only ends in done
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// Whether the answer was computed (tests: one execution per key).
    var isComputed: Bool { state.withLock { if case .done = $0 { true } else { false } } }
}
