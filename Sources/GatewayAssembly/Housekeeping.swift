import Logging
import ServiceLifecycle

/// Runs the store's periodic clean-up (``GatewayBackend/housekeeping``: the embedded store's
/// expired stories) once at start and then every `interval`, until the server stops.
public struct Housekeeping: Service {
    let tasks: [@Sendable () async -> Void]
    let interval: Duration
    let logger: Logger

    public init(tasks: [@Sendable () async -> Void], interval: Duration, logger: Logger) {
        self.tasks = tasks
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                for task in tasks { await task() }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
