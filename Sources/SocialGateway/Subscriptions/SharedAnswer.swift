import Synchronization

/// One event's answer for every subscription of one ``FanOutKey``: computed once, by whichever
/// subscription's transport asks first, and handed to the others as they ask (or at once when it
/// is ready). It lives as long as a queued event refers to it: no table to expire.
///
/// For one viewer's subscriptions a refusal (nil: the event is not for them) is shared like an
/// answer. For a class of viewers (``SubscriptionAudience/mayReadPost``) it is not: the one who
/// computed was refused on their own account (they stopped following a moment ago), so the
/// next subscriber to ask computes again, as themselves (`sharesRefusal: false`).
///
/// ```swift
/// let body = await answer.value { await execute(event) }   // the first caller runs it
/// ```
final class SharedAnswer: Sendable {
    private enum State {
        case pending
        case computing([CheckedContinuation<Wake, Never>])
        case done([UInt8]?)
    }

    /// What a waiting subscriber is woken with.
    private enum Wake {
        case ready([UInt8]?)
        /// The computing subscriber was refused and did not share it: compute again.
        case again
    }

    private let state = Mutex(State.pending)

    /// The answer (nil: not for this audience now), running `compute` if nobody has yet.
    func value(sharesRefusal: Bool = true, _ compute: () async -> [UInt8]?) async -> [UInt8]? {
        enum Role { case compute, ready([UInt8]?), wait }
        while true {
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
                let keep = body != nil || sharesRefusal
                let waiters = state.withLock { state -> [CheckedContinuation<Wake, Never>] in
                    defer { state = keep ? .done(body) : .pending }
                    if case .computing(let waiters) = state { return waiters }
                    return []
                }
                for waiter in waiters { waiter.resume(returning: keep ? .ready(body) : .again) }
                return body
            case .wait:
                let wake = await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                    let ready = state.withLock { state -> Wake? in
                        switch state {
                        case .computing(var waiters):
                            waiters.append(continuation)
                            state = .computing(waiters)
                            return nil
                        case .done(let body): return .ready(body)
                        case .pending: return .again
                        }
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
                switch wake {
                case .ready(let body): return body
                case .again: continue
                }
            }
        }
    }

    /// Whether the answer was computed (tests: one execution per key).
    var isComputed: Bool { state.withLock { if case .done = $0 { true } else { false } } }
}
