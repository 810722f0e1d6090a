import Foundation
import Hummingbird
import SocialDomain
import SocialGateway

/// Health, readiness, metrics and avatar files.
struct OperationalRoutes: Sendable {
    /// Asked whether its backend answers (`/readyz`).
    let service: GatewayService
    let metrics: GatewayMetrics
    /// The store's avatar objects, when it keeps them itself.
    let avatarFiles: (any AvatarFileSource)?
    /// Turns `/readyz` to 503 once a graceful shutdown has begun.
    let readiness: Readiness
    /// Story files the store keeps itself.
    var storyFiles: (any StoryFileSource)? = nil
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

    /// `GET /avatars/<user>/<file>` when the store keeps avatar files itself (the embedded store):
    /// the files it wrote, at the public URLs it handed out. Names are unique per upload, so they
    /// can be cached for a year.
    func avatar(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        let path = context.parameters.getCatchAll().joined(separator: "/")
        guard let avatarFiles, let avatar = await avatarFiles.storedAvatar(atRequestPath: path) else {
            throw GatewayHTTPError.notFound
        }
        return Response(
            status: .ok,
            headers: [.contentType: avatar.contentType, .cacheControl: "public, max-age=31536000, immutable",
                      .contentTypeOptions: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: avatar.bytes)))
    }

    /// `GET /stories/<user>/<file>` when the store keeps story files itself. An expired story's
    /// file is deleted by the housekeeping; until then its unguessable name is the only way to it.
    func story(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        let path = context.parameters.getCatchAll().joined(separator: "/")
        guard let storyFiles, let media = await storyFiles.storedStoryMedia(atRequestPath: path) else {
            throw GatewayHTTPError.notFound
        }
        return Response(
            status: .ok,
            // An hour, not a year: a story ends within a day, and a shared cache should let go soon after.
            headers: [.contentType: media.contentType, .cacheControl: "public, max-age=3600",
                      .contentTypeOptions: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: media.bytes)))
    }
}
