import Logging
import ServiceLifecycle

/// The first step of a graceful shutdown (SIGTERM, SIGINT): `/readyz` turns 503, and the
/// server keeps serving for ``delay`` so that a load balancer polling readiness stops sending
/// new requests before the listener closes. Then this service returns and the service group
/// shuts the HTTP server down, which stops accepting and lets requests in flight finish.
///
/// It must come after the application in the group's list: a group shuts its services down in
/// reverse order.
struct ShutdownDrain: Service {
    let readiness: Readiness
    let delay: Duration
    let logger: Logger

    func run() async throws {
        // Sleeps until the group's graceful shutdown (or cancellation) ends the wait.
        try? await gracefulShutdown()
        readiness.beginDraining()
        logger.notice("shutting down: /readyz answers 503; requests in flight are finished", metadata: [
            "drain_delay": "\(delay)",
        ])
        if delay > .zero { try? await Task.sleep(for: delay) }
        // Streams never finish on their own: complete every subscription, close every socket.
        readiness.stop()
    }
}
