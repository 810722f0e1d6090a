import Synchronization

/// The streaming connections open now (WebSockets, event streams), each with how to end it, so
/// that a graceful shutdown completes every subscription and closes every socket instead of
/// waiting for clients that never hang up.
final class StreamingConnections: Sendable {
    private struct State {
        var closers: [UInt64: @Sendable () -> Void] = [:]
        var next: UInt64 = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// Registers a connection's closer; after ``closeAll()`` it is called at once.
    func add(_ closer: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, closed) = state.withLock { state -> (UInt64, Bool) in
            state.next += 1
            if !state.closed { state.closers[state.next] = closer }
            return (state.next, state.closed)
        }
        if closed { closer() }
        return id
    }

    func remove(_ id: UInt64) { _ = state.withLock { $0.closers.removeValue(forKey: id) } }

    /// Ends every connection, and any that opens from now on.
    func closeAll() {
        let closers = state.withLock { state -> [@Sendable () -> Void] in
            state.closed = true
            defer { state.closers = [:] }
            return Array(state.closers.values)
        }
        for close in closers { close() }
    }

    var count: Int { state.withLock { $0.closers.count } }
}
