import ServiceLifecycle
import Synchronization

/// Services that run beside the server (the assembled gateway's ``AssembledGateway/services``,
/// the `/metrics` listener of `METRICS_PORT`), handed to the service group that runs the server,
/// so they start and stop with it.
public final class BackgroundServices: Sendable {
    private let services = Mutex<[any Service]>([])

    public init() {}

    func add(_ service: any Service) { services.withLock { $0.append(service) } }

    /// What was added so far.
    public var all: [any Service] { services.withLock { $0 } }
}
