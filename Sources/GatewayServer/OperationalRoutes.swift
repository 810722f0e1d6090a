import EmbeddedStore
import Foundation
import Hummingbird
import SocialDomain
import SocialGateway

/// Health, readiness, metrics, avatar files and the load-test ceiling route.
struct OperationalRoutes: Sendable {
    let stores: GatewayStores
    let metrics: GatewayMetrics
    let embedded: EmbeddedStore?
    /// Turns `/readyz` to 503 once a graceful shutdown has begun.
    let readiness: Readiness

    static let jsonType = "application/json; charset=utf-8"

    /// `GET /healthz`: the process is up (liveness; no store call, so a slow store does not get
    /// the server restarted).
    func health(_ request: Request, context: GatewayRequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: Self.jsonType, .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
    }

    /// `GET /readyz`: the store answers a read (one batched lookup of a profile id that does not
    /// exist). 503 when it does not, so a load balancer stops sending traffic; 503
    /// `{"status":"draining"}` from the start of a graceful shutdown on.
    func ready(_ request: Request, context: GatewayRequestContext) async -> Response {
        if readiness.isDraining {
            return Response(status: .serviceUnavailable, headers: [.contentType: Self.jsonType, .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"draining"}"#)))
        }
        do {
            _ = try await stores.profiles.profiles(ids: [UUID(uuidString: "00000000-0000-4000-8000-000000000000")!], viewer: .anonymous)
            return Response(status: .ok, headers: [.contentType: Self.jsonType, .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"ready"}"#)))
        } catch {
            context.logger.warning("readiness check failed", metadata: ["error": "\(error)"])
            return Response(status: .serviceUnavailable, headers: [.contentType: Self.jsonType, .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"unavailable"}"#)))
        }
    }

    /// `GET /metrics`: Prometheus text format.
    func metrics(_ request: Request, context: GatewayRequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.render())))
    }

    /// `GET /avatars/<user>/<file>` in embedded mode: the files the store wrote, at the public URLs
    /// it handed out. Names are unique per upload, so they can be cached for a year.
    func avatar(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        let path = context.parameters.getCatchAll().joined(separator: "/")
        guard let embedded, let file = embedded.avatarFile(forRequestPath: path),
              let data = FileManager.default.contents(atPath: file.path)
        else { throw GatewayHTTPError.notFound }
        let type = file.pathExtension == "png" ? "image/png" : "image/jpeg"
        return Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "public, max-age=31536000, immutable",
                      .contentTypeOptions: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `GET /__bench/constant` (only with `--bench-ceiling-route`): a constant body, the most this
    /// HTTP stack can serve on the machine, to compare GraphQL throughput against.
    static func constant(_ request: Request, context: GatewayRequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: jsonType],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"data":{"ok":true}}"#)))
    }
}
