import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
import SocialDomain
import SocialGateway
import UnixSignals

/// The gateway as a service group: the HTTP application, and the ``ShutdownDrain`` that a
/// graceful shutdown runs first.
///
/// On a graceful shutdown (one of `gracefulShutdownSignals`, or `triggerGracefulShutdown()`),
/// `/readyz` turns 503, the server keeps serving for ``ServerConfiguration/shutdownDrainDelay``,
/// then stops accepting connections and finishes the requests in flight. The whole shutdown is
/// bounded by ``ServerConfiguration/shutdownGracePeriod``; past it, what is left is cancelled.
///
/// Routes: `GET /` (playground), `GET|POST /graphql`, `GET /playground/demo-tokens` (backends
/// with demo users), `GET /healthz`, `GET /readyz`, `GET /metrics` (``MetricsAccess``: on
/// loopback, or with `METRICS_TOKEN`, or on `METRICS_PORT`), `GET /avatars/**` and
/// `/stories/**` (backends that keep media files), and `extraRoutes`. Middleware, outermost first: CORS, the request's
/// span when tracing is on (``RequestTracingMiddleware``), then request id and access log (which also turns thrown
/// ``GatewayHTTPError``s into responses).
///
/// - Parameters:
///   - gateway: what the composition root (`GatewayAssembly`) built: the service, its change
///     stream, cache coherence and subscription hub, over the opened store.
///   - extraRoutes: routes the composition root adds (load-test hooks).
///   - onListening: called with the bound port once the server accepts connections (tests
///     listen on port 0).
///   - telemetry: the span exporter when tracing is on; it starts first and stops last, so
///     the spans of the last requests are flushed.
public func makeServiceGroup(
    configuration: ServerConfiguration, gateway: AssembledGateway, logger: Logger, extraRoutes: [GatewayRoute] = [],
    gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
    onListening: (@Sendable (Int) async -> Void)? = nil, telemetry: (any Service)? = nil
) async throws -> ServiceGroup {
    let readiness = Readiness()
    let background = BackgroundServices()
    let app = try await buildApplication(
        configuration: configuration, gateway: gateway, logger: logger, extraRoutes: extraRoutes, readiness: readiness,
        background: background, onListening: onListening)
    var groupConfiguration = ServiceGroupConfiguration(
        services: (telemetry.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? [])
            + background.all.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) } + [
            .init(service: app),
            .init(
                service: ShutdownDrain(readiness: readiness, delay: configuration.shutdownDrainDelay, logger: logger),
                successTerminationBehavior: .gracefullyShutdownGroup),
        ],
        gracefulShutdownSignals: gracefulShutdownSignals,
        logger: logger)
    groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
    return ServiceGroup(configuration: groupConfiguration)
}

/// Builds the application that routes an assembled gateway (tests share a store with the app).
public func buildApplication(
    configuration: ServerConfiguration, gateway: AssembledGateway, logger: Logger, extraRoutes: [GatewayRoute] = [],
    readiness: Readiness = Readiness(), background: BackgroundServices = BackgroundServices(),
    onListening: (@Sendable (Int) async -> Void)? = nil
) async throws -> some ApplicationProtocol {
    let routers = try await buildRouters(
        configuration: configuration, gateway: gateway, logger: logger, extraRoutes: extraRoutes, readiness: readiness,
        background: background)
    let deadlines = configuration.requestDeadlines
    let mode = gateway.backend.summary
    let host = configuration.host
    return Application(
        router: routers.http,
        server: HTTPServerBuilder { [webSocketResponder = routers.webSocket.buildResponder()] responder in
            DeadlinedUpgradeChannel(
                upgradeChannel: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(
                        http1: .init(additionalChannelHandlers: [RequestDeadlineHandler(deadlines: deadlines), RequestArrivalStamp()]),
                        ws: WebSocketServerConfiguration(
                            maxFrameSize: configuration.subscriptions.maxMessageBytes,
                            autoPing: .enabled(timePeriod: .seconds(30))))),
                headTimeout: deadlines.headTimeout)
        },
        configuration: ApplicationConfiguration(
            address: .hostname(host, port: configuration.port), serverName: "social-gateway", backlog: configuration.listenBacklog),
        onServerRunning: { channel in
            // Accepting must not wait for the accept loop's turn (``EagerAccept``).
            do {
                try await channel.eventLoop.submit {
                    try channel.pipeline.syncOperations.addHandler(EagerAccept(), position: .first)
                }.get()
            } catch {
                logger.warning("could not install the eager accept handler", metadata: ["error": "\(error)"])
            }
            let port = channel.localAddress?.port ?? configuration.port
            logger.notice("social-gateway listening on http://\(host):\(port) (\(mode)); playground at /, GraphQL at /graphql")
            await onListening?(port)
        },
        logger: logger)
}

/// The router with every route and middleware (exposed for tests that want the router alone).
///
/// The gateway's ``AssembledGateway/services`` (the ``ChangeStream`` following a backend's feed,
/// which feeds the cache's ``CacheCoherence``: until something runs it, the cache answers
/// nothing) are added to `background`, with the `/metrics` listener when `METRICS_PORT` is set.
public func buildRouter(
    configuration: ServerConfiguration, gateway: AssembledGateway, logger: Logger, extraRoutes: [GatewayRoute] = [],
    readiness: Readiness = Readiness(), background: BackgroundServices = BackgroundServices()
) async throws -> Router<GatewayRequestContext> {
    try await buildRouters(
        configuration: configuration, gateway: gateway, logger: logger, extraRoutes: extraRoutes, readiness: readiness,
        background: background
    ).http
}

/// The HTTP router, and the router of WebSocket upgrades (`graphql-transport-ws` on `/graphql`).
struct GatewayRouters {
    let http: Router<GatewayRequestContext>
    let webSocket: Router<GatewayWebSocketContext>
}

func buildRouters(
    configuration: ServerConfiguration, gateway: AssembledGateway, logger: Logger, extraRoutes: [GatewayRoute],
    readiness: Readiness, background: BackgroundServices
) async throws -> GatewayRouters {
    let backend = gateway.backend, service = gateway.service, hub = gateway.hub
    for running in gateway.services { background.add(running) }
    let authenticator = await JWTAuthenticator(
        hmacSecret: backend.jwtSecret, jwks: backend.jwks, audience: configuration.jwtAudience,
        issuer: configuration.jwtIssuer, endedSessions: gateway.endedSessions)
    let metrics = GatewayMetrics(storeCallCounts: backend.stores.callCounts)
    metrics.mirror(cache: gateway.cache)
    if let coherence = gateway.coherence { metrics.mirror(coherence: coherence) }
    if let memory = service.memory { metrics.mirror(memory: memory) }
    let issuer: DevTokenIssuer? =
        if !backend.demoUsers.isEmpty, configuration.demoTokensEnabled, let secret = backend.jwtSecret {
            await DevTokenIssuer(secret: secret, audience: configuration.jwtAudience, issuer: configuration.jwtIssuer)
        } else {
            nil
        }
    if issuer != nil, !ServerConfiguration.isLoopback(configuration.host) {
        logger.warning(
            "DEMO_TOKENS=true on a non-loopback address: anyone who can reach \(configuration.host):\(configuration.port) can get a token for every demo user at /playground/demo-tokens and act as them. Use it only on a trusted network.")
    }
    let playground = try Playground(issuer: issuer, demoUsers: backend.demoUsers)
    // Subscriptions: every stream registers how to end it.
    let connections = StreamingConnections()
    readiness.onStop {
        hub.shutdown()
        connections.closeAll()
    }
    metrics.mirror(subscriptions: hub, connections: connections)
    metrics.mirror(demand: service.demandCounters)
    var graphQL = GraphQLRoute(
        service: service, authenticator: authenticator, metrics: metrics, maxBodyBytes: configuration.maxBodyBytes,
        maxBatchSize: configuration.maxBatchSize, maxJSONValues: configuration.maxJSONValues,
        uploadLimits: MultipartUpload.Limits(
            // The largest file any mutation takes (a story); each refuses beyond its own limit.
            maxFieldBytes: configuration.maxBodyBytes, maxFileBytes: max(UploadAvatar.maxBytes, CreateStory.maxBytes),
            maxFiles: configuration.maxUploadFiles, maxBatchSize: configuration.maxBatchSize,
            maxJSONValues: configuration.maxJSONValues, spoolDirectory: configuration.uploadSpoolDirectory),
        uploadSlots: UploadSlots(limit: configuration.maxConcurrentUploads), trustedProxies: configuration.trustedProxies)
    graphQL.compression = ResponseCompression(minimumBytes: configuration.compressionMinBytes, metrics: metrics)
    let admission = StreamingAdmission(limits: configuration.subscriptions)
    let queueWait = QueueWaitGate(maxWait: configuration.maxQueueWait, metrics: metrics, slots: service.executionSlots)
    graphQL.streaming = StreamingResponder(
        hub: hub, service: service, connections: connections, admission: admission, logger: logger)
    graphQL.queueWait = queueWait
    let operational = OperationalRoutes(
        service: service, metrics: metrics, mediaFiles: backend.mediaFiles, readiness: readiness,
        coherence: gateway.coherence)

    let router = Router(context: GatewayRequestContext.self)
    router.add(middleware: CORSMiddleware(allowedOrigins: configuration.corsAllowedOrigins))
    if configuration.tracing { router.add(middleware: RequestTracingMiddleware(trustsIncoming: configuration.tracingTrustsIncoming)) }
    router.add(middleware: RequestIDMiddleware())
    router.get("/graphql", use: graphQL.get)
    router.post("/graphql", use: graphQL.post)
    for method: HTTPRequest.Method in [.put, .patch, .delete] {
        router.on("/graphql", method: method) { _, _ -> Response in throw GatewayHTTPError.methodNotAllowed }
    }
    router.get("/", use: playground.page)
    router.get("/playground/demo-tokens", use: playground.demoTokens)
    router.get("/healthz", use: operational.health)
    router.get("/readyz", use: operational.ready)
    let metricsAccess = MetricsAccess(configuration)
    router.get("/metrics") { request, context in
        try metricsAccess.onAPIPort.check(request)
        return operational.metrics(request, context: context)
    }
    if let port = configuration.metricsPort {
        // `/metrics` alone, on a listener of its own, started and stopped with the server.
        let metricsRouter = Router(context: GatewayRequestContext.self)
        metricsRouter.get("/metrics") { request, context in
            try metricsAccess.onMetricsPort.check(request)
            return operational.metrics(request, context: context)
        }
        background.add(Application(
            router: metricsRouter,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.metricsHost, port: port), serverName: "social-gateway-metrics"),
            logger: logger))
    } else if metricsAccess.onAPIPort == .closed {
        logger.notice(
            "/metrics is not served on \(configuration.host):\(configuration.port), which is not a loopback address: set METRICS_PORT (a listener on \(configuration.metricsHost)) or METRICS_TOKEN to read it")
    }
    for kind in MediaKind.allCases {
        let serve = { @Sendable (request: Request, context: GatewayRequestContext) async throws -> Response in
            try await operational.media(kind, request, context: context)
        }
        router.get("/\(kind.bucket)/**", use: serve)
        router.head("/\(kind.bucket)/**", use: serve)
    }
    for route in extraRoutes {
        router.on(route.path, method: route.method) { request, context in try await route.respond(request, context) }
    }
    let webSocketRouter = Router(context: GatewayWebSocketContext.self)
    webSocketRouter.ws(
        "/graphql",
        shouldUpgrade: { request, _ in
            // Only the graphql-transport-ws subprotocol; anything else is answered as plain HTTP.
            let offered = request.headers[.secWebSocketProtocol] ?? ""
            guard offered.split(separator: ",").contains(where: { $0.trimmingSpaces == GraphQLWebSocketSession.subprotocol }) else {
                return .dontUpgrade
            }
            return .upgrade([.secWebSocketProtocol: GraphQLWebSocketSession.subprotocol])
        },
        onUpgrade: { inbound, outbound, context in
            let session = GraphQLWebSocketSession(
                hub: hub, service: service, authenticator: authenticator, maxJSONValues: configuration.maxJSONValues,
                upgradeAuthorization: context.request.headers[.authorization],
                clientAddress: configuration.trustedProxies.clientAddress(
                    peer: context.requestContext.remoteAddress?.ipAddress,
                    forwardedFor: context.request.headers[.xForwardedFor]),
                logger: context.logger, connections: connections, admission: admission, queueWait: queueWait)
            try await session.run(inbound: inbound, outbound: outbound)
        })
    return GatewayRouters(http: router, webSocket: webSocketRouter)
}
