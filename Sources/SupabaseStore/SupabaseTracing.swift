import AsyncHTTPClient
import Tracing

/// The trace of a Supabase call: a client span per ``SupabaseRequest`` (its operation, method
/// and path, never its query string or body, which carry values), and the W3C `traceparent`
/// (with `tracestate`) on every request sent, so PostgREST, GoTrue and Storage join the trace.
///
/// Only inside a traced request (`InstrumentationContext.current` set by the server's tracing
/// middleware); otherwise a request costs one task-local read. AsyncHTTPClient's own tracing is
/// off (``SupabaseHTTPClient``): it would record the full URL, query values included.
enum SupabaseTracing {
    /// Runs `body` (every attempt of `request`) in a client span `supabase <operation>`.
    static func span<T>(
        _ request: SupabaseRequest, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard InstrumentationContext.current != nil else { return try await body() }
        return try await withSpan("supabase \(request.operation)", ofKind: .client, isolation: isolation) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["url.path"] = recordedPath(request)
            span.attributes["supabase.service"] = "\(request.service)"
            span.attributes["db.operation.name"] = request.operation
            return try await body()
        }
    }

    /// The path a span records: PostgREST's and GoTrue's as sent (table, function or endpoint
    /// names); Storage's without the object's name (`/storage/v1/object/<bucket>`), which holds
    /// ids.
    static func recordedPath(_ request: SupabaseRequest) -> String {
        guard case .storage = request.service else { return request.path }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true)
        return "/" + parts.prefix(4).joined(separator: "/")
    }

    /// Adds the current trace's propagation headers (`traceparent`, `tracestate`, as the
    /// bootstrapped instrument writes them) to `request`.
    static func inject(into request: inout HTTPClientRequest) {
        guard let context = InstrumentationContext.current else { return }
        InstrumentationSystem.instrument.inject(context, into: &request, using: HeadersInjector())
    }

    struct HeadersInjector: Injector {
        func inject(_ value: String, forKey key: String, into request: inout HTTPClientRequest) {
            request.headers.replaceOrAdd(name: key, value: value)
        }
    }
}
