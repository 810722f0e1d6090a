import Tracing

/// Spans for the steps of a GraphQL request: parse, validate, cache lookup and store, execute,
/// each loader wave.
///
/// A step is traced only inside a traced request: the server's tracing middleware, installed only
/// when tracing is on (`OTEL_*` settings, README), puts the request's span in
/// `InstrumentationContext.current`. Without one, a step costs one task-local read and calls its
/// body directly: no span, no tracer, no allocation. Spans name steps and carry counts, never
/// values (no variables, no keys, no ids).
///
/// ```swift
/// let hit = await GatewayTracing.step("cache.lookup") { await cache.lookup(key) }
/// ```
public enum GatewayTracing {
    /// Whether the current task runs inside a traced request.
    public static var isTracing: Bool { InstrumentationContext.current != nil }

    /// Runs `body` in a span named `name` (a child of the current one) when the request is
    /// traced; the span ends when `body` returns or throws (the error is recorded).
    public static func step<T>(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard InstrumentationContext.current != nil else { return try await body() }
        return try await withSpan(name, isolation: isolation) { _ in try await body() }
    }

    /// One wave of a DataLoader: a ``step(_:isolation:_:)`` whose span also counts the keys
    /// (`loader.keys`).
    public static func wave<T>(
        _ name: String, keys: Int, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard InstrumentationContext.current != nil else { return try await body() }
        return try await withSpan(name, isolation: isolation) { span in
            span.attributes["loader.keys"] = keys
            return try await body()
        }
    }

    /// A synchronous step without children (parse, validate): its span is started and ended
    /// around `body`, keeping `body`'s typed error.
    public static func leaf<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard InstrumentationContext.current != nil else { return try body() }
        let span = startSpan(name)
        defer { span.end() }
        do {
            return try body()
        } catch {
            span.recordError(error)
            throw error
        }
    }
}
