import ServiceLifecycle
import Synchronization

/// Services the router's construction starts (the cache's ``CacheCoherence``), handed to the
/// service group that runs the server, so they start and stop with it.
public final class BackgroundServices: Sendable {
    private let services = Mutex<[any Service]>([])

    public init() {}

    func add(_ service: any Service) { services.withLock { $0.append(service) } }

    /// What was added so far.
    public var all: [any Service] { services.withLock { $0 } }
}
