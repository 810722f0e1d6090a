import HTTPTypes
import Hummingbird
import Tracing

/// A server span for every request, the parent of the request's GraphQL steps
/// (``SocialGateway/GatewayTracing``) and store calls, installed only when tracing is on
/// (``ServerConfiguration/tracing``).
///
/// A client's W3C `traceparent` (and `tracestate`) are read as the bootstrapped instrument reads
/// them. By default they do not decide anything: the request's span starts a trace of its own,
/// which the server's sampler (`OTEL_TRACES_SAMPLER`) keeps or drops as it does any root span,
/// and carries a link to the client's span so that the two traces can still be joined. Were the
/// client's span the parent, a parent-based sampler (the default, `parentbased_always_on`, and
/// `parentbased_traceidratio`) would export every request whose `traceparent` says "sampled",
/// whatever ratio the operator chose: any client could make the server trace, and pay for, all
/// of its requests. With ``trustsIncoming`` (`TRACING_TRUST_INCOMING=true`, for a deployment whose
/// callers are its own services) the client's span is the parent: its trace id and its sampling
/// decision carry on. The span is named after the route (`POST /graphql`,
/// `GET /avatars/**`), never the path or the query string (ids, variables), and ends when the
/// response is ready: GraphQL answers are whole by then; a stream's span covers its start only.
/// Unlike Hummingbird's `TracingMiddleware`, it records no query string: a GET's holds the
/// variables.
///
/// Outside the request-id middleware, so that the access log line carries `trace_id` and
/// `span_id` (``TraceLogMetadata``); the span records the request's id in turn (`request_id`).
struct RequestTracingMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    /// Whether a client's `traceparent` becomes the parent, with its sampling decision
    /// (``ServerConfiguration/tracingTrustsIncoming``); otherwise it is only linked.
    var trustsIncoming = false

    static let traceparent = HTTPField.Name("traceparent")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let local = InstrumentationContext.current ?? .topLevel
        var incoming = local
        InstrumentationSystem.instrument.extract(request.headers, into: &incoming, using: HeadersExtractor())
        let span = startSpan("\(request.method.rawValue)", context: trustsIncoming ? incoming : local, ofKind: .server)
        if !trustsIncoming, request.headers[Self.traceparent] != nil {
            // The client's span, for joining the traces: not a parent, so not a sampling decision.
            span.addLink(SpanLink(context: incoming, attributes: [:]))
        }
        span.attributes["http.request.method"] = request.method.rawValue
        do {
            return try await InstrumentationContext.$current.withValue(span.context) {
                let response = try await next(request, context)
                Self.finish(span, context: context, request: request, status: Int(response.status.code))
                span.attributes["request_id"] = response.headers[.requestID]
                span.end()
                return response
            }
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            Self.finish(span, context: context, request: request, status: status)
            span.recordError(error)
            span.end()
            throw error
        }
    }

    static func finish(_ span: any Span, context: Context, request: Request, status: Int) {
        if let route = context.endpointPath {
            span.operationName = "\(request.method.rawValue) \(route)"
            span.attributes["http.route"] = route
        }
        span.attributes["http.response.status_code"] = status
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }

    struct HeadersExtractor: Extractor {
        func extract(key: String, from headers: HTTPFields) -> String? {
            guard let name = HTTPField.Name(key) else { return nil }
            return headers[name]
        }
    }
}

/// `trace_id` and `span_id` for a log line inside a traced request, read from the current
/// span's W3C `traceparent` as the bootstrapped instrument writes it; nil outside one.
enum TraceLogMetadata {
    static func current() -> (traceID: String, spanID: String)? {
        guard let context = InstrumentationContext.current else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        // version "-" trace-id (32 hex) "-" parent-id (16 hex) "-" flags
        guard let parent = carrier["traceparent"] else { return nil }
        let parts = parent.split(separator: "-")
        guard parts.count == 4, parts[1].utf8.count == 32, parts[2].utf8.count == 16 else { return nil }
        return (String(parts[1]), String(parts[2]))
    }

    struct DictionaryInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }
}
