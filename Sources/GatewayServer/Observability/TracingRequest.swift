/// Whether the standard OpenTelemetry variables ask for traces: the one switch of tracing, read
/// once at start (README, "Tracing").
///
/// - `OTEL_SDK_DISABLED=true` always wins: off.
/// - `OTEL_TRACES_EXPORTER`, when set, decides: `none` is off, anything else (`otlp`,
///   `console`) on.
/// - Otherwise an OTLP endpoint (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
///   `OTEL_EXPORTER_OTLP_ENDPOINT`) turns it on.
/// - Nothing set: off, and no span, tracer or exporter exists.
///
/// ```swift
/// TracingRequest.isRequested(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"])  // true
/// ```
public enum TracingRequest {
    public static func isRequested(_ environment: [String: String]) -> Bool {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingSpaces.lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if value("OTEL_SDK_DISABLED") == "true" { return false }
        if let exporter = value("OTEL_TRACES_EXPORTER") {
            return exporter.split(separator: ",").contains { $0.trimmingSpaces != "none" }
        }
        return value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != nil || value("OTEL_EXPORTER_OTLP_ENDPOINT") != nil
    }
}
