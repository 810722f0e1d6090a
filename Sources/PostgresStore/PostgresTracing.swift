import Tracing

/// The trace of a PostgreSQL store call: a client span `postgres <operation>` (the statement's
/// name, never its bound values), and the span's W3C `traceparent` as the transaction's
/// `application_name`, so `pg_stat_activity` (and `log_line_prefix` `%a` in the server's log)
/// shows which trace a running or slow statement belongs to.
///
/// Only inside a traced request (`InstrumentationContext.current` set by the server's tracing
/// middleware). Otherwise no span is started and the transaction's `application_name` stays the
/// connection's own (``defaultApplicationName``), which PostgreSQL does not even report back.
enum PostgresTracing {
    /// The connections' `application_name` (``PostgresConfiguration``).
    static let defaultApplicationName = "social-gateway"

    /// A started span for the call `operation`, or nil outside a traced request.
    static func start(_ operation: String) -> (any Span)? {
        guard InstrumentationContext.current != nil else { return nil }
        let span = startSpan("postgres \(operation)", ofKind: .client)
        span.attributes["db.system.name"] = "postgresql"
        span.attributes["db.operation.name"] = operation
        return span
    }

    /// The `application_name` of the call's transaction: the span's `traceparent` (55
    /// characters, within PostgreSQL's 63), or ``defaultApplicationName`` without a span.
    static func applicationName(_ span: (any Span)?) -> String {
        guard let span else { return defaultApplicationName }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(span.context, into: &carrier, using: DictionaryInjector())
        return carrier["traceparent"] ?? defaultApplicationName
    }

    struct DictionaryInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
            carrier[key] = value
        }
    }
}
