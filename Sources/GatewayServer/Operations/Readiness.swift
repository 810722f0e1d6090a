import Synchronization

/// Whether this process still wants new traffic: `GET /readyz` answers 503 once it does not.
///
/// Shared between the readiness route and ``ShutdownDrain``, which flips it when a graceful
/// shutdown begins.
public final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)
    private let stopActions = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    /// True from the start of a graceful shutdown on.
    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    func beginDraining() { draining.store(true, ordering: .releasing) }

    /// Adds what to do when the server stops taking requests after the drain: end streams that
    /// would otherwise hold the shutdown until its grace period (subscriptions, WebSockets).
    func onStop(_ action: @escaping @Sendable () -> Void) { stopActions.withLock { $0.append(action) } }

    /// The drain is over: runs the ``onStop(_:)`` actions.
    func stop() {
        for action in stopActions.withLock({ $0 }) { action() }
    }
}
