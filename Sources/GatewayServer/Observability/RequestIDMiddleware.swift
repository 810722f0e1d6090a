import Foundation
import Hummingbird
import Logging
import SocialDomain

/// Gives every request an id and writes one access log line per request.
///
/// The id is the client's `X-Request-Id` when it is 1 to 128 characters of `[A-Za-z0-9._:-]`
/// (so a proxy's id threads through), otherwise a new UUID-shaped id (``RequestIDGenerator``); it is echoed in the response header
/// and attached to the context's logger as `request_id`. The access line carries method, path
/// (never the query string, which may hold variables), status and duration. Headers are never
/// logged, so neither is `Authorization`. Inside a traced request (``RequestTracingMiddleware``)
/// the logger also carries the trace's `trace_id` and the request span's `span_id`.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    static let header = HeaderName.requestID
    /// One per process: ids from a counter on a random base.
    static let ids = RequestIDGenerator()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id = request.headers[Self.header].flatMap(Self.sanitized) ?? Self.ids.next()
        context.requestID = id
        context.logger[metadataKey: "request_id"] = .string(id)
        if let trace = TraceLogMetadata.current() {
            context.logger[metadataKey: "trace_id"] = .string(trace.traceID)
            context.logger[metadataKey: "span_id"] = .string(trace.spanID)
        }
        let start = ContinuousClock.now
        let path = request.uri.path
        do {
            var response = try await next(request, context)
            response.headers[Self.header] = id
            log(context, request, path: path, status: response.status.code, start: start)
            return response
        } catch let error as any HTTPResponseError {
            log(context, request, path: path, status: error.status.code, start: start)
            var response = try error.response(from: request, context: context)
            response.headers[Self.header] = id
            return response
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            log(context, request, path: path, status: 500, start: start)
            throw error
        }
    }

    func log(_ context: Context, _ request: Request, path: String, status: Int, start: ContinuousClock.Instant) {
        // Built only when it will be written: under load the server runs at `warning`.
        guard context.logger.logLevel <= .info else { return }
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "path": .string(path), "status": .stringConvertible(status),
            "duration_ms": .string(String(format: "%.2f", milliseconds)),
        ]
        if let operations = context.annotations.operations { metadata["operation"] = .string(operations) }
        context.logger.info("request", metadata: metadata)
    }

    static func sanitized(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count),
              value.utf8.allSatisfy({ byte in
                  (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                      || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
              })
        else { return nil }
        return value
    }
}
