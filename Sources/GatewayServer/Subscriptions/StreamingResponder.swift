import Foundation
import GraphQLEngine
import Hummingbird
import Logging
import SocialDomain
import SocialGateway

/// Answers a `/graphql` request that asked for a stream (``StreamFormat``): a subscription streams
/// its events until it ends, the client goes away or the token expires; a query or mutation is
/// streamed as one answer and the end.
///
/// Whatever keeps the stream from starting (an invalid document, a signed-out viewer, live updates
/// unavailable, too many streams for the viewer) is a plain JSON response with a status: 400,
/// 401, 503 with `Retry-After`, 429.
struct StreamingResponder: Sendable {
    let hub: SubscriptionHub
    let service: GatewayService
    let connections: StreamingConnections
    /// The replica's bound on streaming connections, which event streams count against too.
    let admission: StreamingAdmission
    let logger: Logger

    func respond(_ format: StreamFormat, _ request: GatewayRequest) async -> Response {
        let start = await hub.subscribe(request)
        if case .refused(let response) = start { return refusal(response) }
        if case .notASubscription = start {
            let response = await service.execute(request)
            if response.outcome != .executed { return refusal(response) }
            return stream(format) { writer in
                try await writer.write(ByteBuffer(bytes: format.next(response.body)))
                // A query with @defer or @stream (server-sent events ask for payloads): one `next` each.
                try await response.incremental?.forEach { payload in
                    try await writer.write(ByteBuffer(bytes: format.next(payload.body)))
                }
            }
        }
        guard case .started(let subscription) = start else { return Response(status: .internalServerError) }
        guard let viewer = request.viewer.userId, hub.acquireConnection(viewer: viewer) else {
            subscription.cancel()
            let error = GraphQLError(
                "This viewer already holds \(hub.limits.connectionsPerViewer) streaming connections; close one first.",
                extensions: ["code": "TOO_MANY_REQUESTS"])
            return Response(
                status: .tooManyRequests, headers: [.contentType: MediaType.json.headerValue, .retryAfter: "5"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: ExecutionResult.requestError([error]).serialized())))
        }
        guard admission.openStream() else {
            subscription.cancel()
            hub.releaseConnection(viewer: viewer)
            let refusal = GatewayHTTPError.tooManyStreams(limit: admission.maxConnections)
            let error = GraphQLError(refusal.message, extensions: ["code": .string(refusal.code)])
            return Response(
                status: .serviceUnavailable, headers: [.contentType: MediaType.json.headerValue, .retryAfter: "5"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: ExecutionResult.requestError([error]).serialized())))
        }
        // A session that ends ends the subscription (UNAUTHENTICATED) through the hub, and so the stream.
        let expiresAt = request.viewer.token.flatMap(TokenExpiry.of)
        let heartbeat = Duration.seconds(hub.limits.heartbeatSeconds)
        let closer = connections.add { subscription.complete() }
        return stream(format) { writer in
            defer {
                subscription.cancel()
                connections.remove(closer)
                hub.releaseConnection(viewer: viewer)
                admission.closeStream()
            }
            while true {
                if let expiresAt, expiresAt.timeIntervalSinceNow <= 0 {
                    subscription.cancel()
                    try await writer.write(ByteBuffer(bytes: format.failure([GraphQLError(
                        DomainError.sessionExpired.message, extensions: ["code": "UNAUTHENTICATED"])])))
                    return
                }
                switch await subscription.next(idleAfter: heartbeat) {
                case .next(let body): try await writer.write(ByteBuffer(bytes: format.next(body)))
                case .idle: try await writer.write(ByteBuffer(bytes: format.heartbeat))
                case .end(.completed), .end(.cancelled): return
                case .end(.failed(let errors)):
                    try await writer.write(ByteBuffer(bytes: format.failure(errors)))
                    return
                }
            }
        }
    }

    /// A streaming response: `body` writes the answers, then the stream's end is written.
    private func stream(
        _ format: StreamFormat, _ body: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        var headers: HTTPFields = [.contentType: format.contentType, .cacheControl: "no-store"]
        headers[HeaderName("X-Accel-Buffering")!] = "no"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: format.opening))
                try await body(&writer)
                try await writer.write(ByteBuffer(bytes: format.complete))
                try await writer.finish(nil)
            })
    }

    /// The plain JSON answer for a stream that could not start.
    private func refusal(_ response: GatewayResponse) -> Response {
        var headers: HTTPFields = [.contentType: MediaType.json.headerValue]
        let status: HTTPResponse.Status
        if response.errorCodes.contains("UNAUTHENTICATED") {
            status = .unauthorized
            headers[.wwwAuthenticate] = "Bearer"
        } else if response.errorCodes.contains("BACKEND_UNAVAILABLE") {
            status = .serviceUnavailable
            headers[.retryAfter] = "5"
        } else if response.outcome == .mutationNotAllowed {
            status = .methodNotAllowed
            headers[.allow] = "POST"
        } else {
            status = .badRequest
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
    }
}
