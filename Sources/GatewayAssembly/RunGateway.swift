import GatewayServer
import Logging

/// Opens the configured store, runs the gateway until SIGINT/SIGTERM (`social-gateway serve`),
/// then releases the store. A signal starts a graceful shutdown: requests in flight finish,
/// then this returns.
/// - Throws: start-up errors (configuration, store, port in use).
public func runGateway(_ settings: GatewaySettings) async throws {
    var logger = Logger(label: "social-gateway")
    logger.logLevel = settings.server.logLevel
    // First: the process has one tracer, bootstrapped once, before anything can start a span.
    let exporter = try TracingBootstrap.start(if: settings.server.tracing, logger: logger)
    let backend = try await BackendAssembly.open(settings, logger: logger)
    do {
        let group = try await makeServiceGroup(
            configuration: settings.server.withSQLiteResponseCache, backend: backend, logger: logger,
            extraRoutes: settings.loadTest.routes, telemetry: exporter)
        try await group.run()
    } catch {
        await backend.shutdown()
        throw error
    }
    await backend.shutdown()
    logger.notice("social-gateway stopped")
}
