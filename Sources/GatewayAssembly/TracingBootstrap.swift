import GatewayServer
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Starts OpenTelemetry tracing for `serve` when the `OTEL_*` variables ask for it
/// (``GatewayServer/TracingRequest``): swift-otel's tracer becomes the process's, exporting
/// batches of spans over OTLP/HTTP (protobuf) to `OTEL_EXPORTER_OTLP_ENDPOINT`
/// (`http://localhost:4318` by default). Every other standard variable (`OTEL_SERVICE_NAME`,
/// `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_PROPAGATORS`...)
/// keeps its meaning. Traces only: logs and metrics stay where they are (stdout, `/metrics`).
///
/// Without the variables nothing here runs: the process has no tracer and no exporter.
///
/// ```swift
/// let exporter = try TracingBootstrap.start(if: settings.server.tracing, logger: logger)
/// ```
enum TracingBootstrap {
    /// Bootstraps the process's tracer when `requested`; the returned service exports and, on
    /// shutdown, flushes (nil when not requested: nothing was set up).
    /// - Throws: `OTel.Configuration.Error` for a variable swift-otel cannot honour (e.g.
    ///   `OTEL_EXPORTER_OTLP_PROTOCOL=grpc`: this build has the OTLP/HTTP exporter only).
    static func start(if requested: Bool, logger: Logger) throws -> (any Service)? {
        guard requested else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "social-gateway"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(tracer)
        logger.notice("tracing on: spans go out over OTLP/HTTP as the OTEL_* variables say")
        return service
    }
}
