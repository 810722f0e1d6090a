import Foundation
import Hummingbird
import SocialDomain
import SocialGateway

/// Health, readiness, metrics and media files.
struct OperationalRoutes: Sendable {
    /// Asked whether its backend answers (`/readyz`).
    let service: GatewayService
    let metrics: GatewayMetrics
    /// The store's media files, when it keeps them itself.
    let mediaFiles: (any MediaFileSource)?
    /// Turns `/readyz` to 503 once a graceful shutdown has begun.
    let readiness: Readiness
    /// The cache's change feed, when there is one: its state is part of `/readyz`'s body.
    var coherence: CacheCoherence? = nil

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
    ///
    /// With a cache change feed the body also says where it stands (`"cacheFeed":"listening"`,
    /// `"connecting"` or `"lost"`). A lost feed does not make the replica unready: its cache
    /// answers nothing meanwhile, so every answer still comes from the store.
    func ready(_ request: Request, context: GatewayRequestContext) async -> Response {
        if readiness.isDraining {
            return Response(status: .serviceUnavailable, headers: [.contentType: Self.jsonType, .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"draining"}"#)))
        }
        do {
            try await service.checkBackend()
            return Response(status: .ok, headers: [.contentType: Self.jsonType, .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: readyBody)))
        } catch {
            context.logger.warning("readiness check failed", metadata: ["error": "\(error)"])
            return Response(status: .serviceUnavailable, headers: [.contentType: Self.jsonType, .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"unavailable"}"#)))
        }
    }

    var readyBody: String {
        guard let coherence else { return #"{"status":"ready"}"# }
        return #"{"status":"ready","cacheFeed":"\#(coherence.state.rawValue)"}"#
    }

    /// `GET /metrics`: Prometheus text format.
    func metrics(_ request: Request, context: GatewayRequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.render())))
    }

    /// `GET /<bucket>/<user>/<file>` (`/avatars/...`, `/stories/...`, `/post-images/...`) when the
    /// store keeps media files itself (the embedded store): the files it wrote, at the public URLs
    /// it handed out. Names are unique per upload, so an avatar or a post's image can be cached for
    /// a year; a story's file only an
    /// hour, since a story ends within a day and a shared cache should let go soon after (an
    /// expired story's file is deleted by the housekeeping; until then its unguessable name is the
    /// only way to it).
    func media(_ kind: MediaKind, _ request: Request, context: GatewayRequestContext) async throws -> Response {
        let path = context.parameters.getCatchAll().joined(separator: "/")
        guard let mediaFiles, let media = await mediaFiles.storedMedia(kind, atRequestPath: path) else {
            throw GatewayHTTPError.notFound
        }
        let cacheControl = switch kind {
        case .avatar, .postImage: "public, max-age=31536000, immutable"
        case .story: "public, max-age=3600"
        }
        return Response(
            status: .ok,
            headers: [.contentType: media.contentType, .cacheControl: cacheControl, .contentTypeOptions: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: media.bytes)))
    }
}
