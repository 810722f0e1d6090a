import Synchronization

/// Whether this process still wants new traffic: `GET /readyz` answers 503 once it does not.
///
/// Shared between the readiness route and ``ShutdownDrain``, which flips it when a graceful
/// shutdown begins.
public final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)

    public init() {}

    /// True from the start of a graceful shutdown on.
    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    func beginDraining() { draining.store(true, ordering: .releasing) }
}
