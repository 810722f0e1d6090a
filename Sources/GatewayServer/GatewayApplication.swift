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
/// with demo users), `GET /healthz`, `GET /readyz`, `GET /metrics`, `GET /avatars/**` and
/// `/stories/**` (backends that keep media files), and `extraRoutes`. Middleware, outermost first: CORS, the request's
/// span when tracing is on (``RequestTracingMiddleware``), then request id and access log (which also turns thrown
/// ``GatewayHTTPError``s into responses).
///
/// - Parameters:
///   - backend: the opened store, as the composition root (`GatewayAssembly`) describes it.
///   - extraRoutes: routes the composition root adds (load-test hooks).
///   - onListening: called with the bound port once the server accepts connections (tests
///     listen on port 0).
///   - telemetry: the span exporter when tracing is on; it starts first and stops last, so
///     the spans of the last requests are flushed.
public func makeServiceGroup(
    configuration: ServerConfiguration, backend: GatewayBackend, logger: Logger, extraRoutes: [GatewayRoute] = [],
    gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
    onListening: (@Sendable (Int) async -> Void)? = nil, telemetry: (any Service)? = nil
) async throws -> ServiceGroup {
    let readiness = Readiness()
    let background = BackgroundServices()
    let app = try await buildApplication(
        configuration: configuration, backend: backend, logger: logger, extraRoutes: extraRoutes, readiness: readiness,
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

/// Builds the application on an opened backend (tests share a store with the app).
public func buildApplication(
    configuration: ServerConfiguration, backend: GatewayBackend, logger: Logger, extraRoutes: [GatewayRoute] = [],
    readiness: Readiness = Readiness(), background: BackgroundServices = BackgroundServices(),
    onListening: (@Sendable (Int) async -> Void)? = nil
) async throws -> some ApplicationProtocol {
    let routers = try await buildRouters(
        configuration: configuration, backend: backend, logger: logger, extraRoutes: extraRoutes, readiness: readiness,
        background: background)
    let deadlines = configuration.requestDeadlines
    let mode = backend.summary
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
/// With a backend ``GatewayBackend/changeFeed``, a ``ChangeStream`` that follows it is added to
/// `background`, feeding the cache's ``CacheCoherence`` (until something runs it, the cache
/// answers nothing) and the ended sessions other replicas announce.
public func buildRouter(
    configuration: ServerConfiguration, backend: GatewayBackend, logger: Logger, extraRoutes: [GatewayRoute] = [],
    readiness: Readiness = Readiness(), background: BackgroundServices = BackgroundServices()
) async throws -> Router<GatewayRequestContext> {
    try await buildRouters(
        configuration: configuration, backend: backend, logger: logger, extraRoutes: extraRoutes, readiness: readiness,
        background: background
    ).http
}

/// The HTTP router, and the router of WebSocket upgrades (`graphql-transport-ws` on `/graphql`).
struct GatewayRouters {
    let http: Router<GatewayRequestContext>
    let webSocket: Router<GatewayWebSocketContext>
}

func buildRouters(
    configuration: ServerConfiguration, backend: GatewayBackend, logger: Logger, extraRoutes: [GatewayRoute],
    readiness: Readiness, background: BackgroundServices
) async throws -> GatewayRouters {
    var gatewayOptions = configuration.gateway
    if gatewayOptions.maxConcurrentQueries == nil { gatewayOptions.maxConcurrentQueries = backend.concurrentQueries }
    if configuration.responseCache, let open = configuration.openResponseCache {
        // A folder or file that cannot be used degrades to no caching (logged), never to a failed start.
        try? FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
        gatewayOptions.cache = open(configuration, logger)
    }
    if let manifest = configuration.persistedQueriesManifest {
        gatewayOptions.trustedDocuments = try TrustedDocuments.load(contentsOf: manifest)
        logger.notice("trusted documents loaded", metadata: ["count": "\(gatewayOptions.trustedDocuments!.count)"])
    }
    if configuration.persistedQueriesOnly {
        guard gatewayOptions.trustedDocuments != nil else {
            throw ServerConfigurationError(
                "PERSISTED_QUERIES_ONLY=true needs PERSISTED_QUERIES_MANIFEST, the manifest of the documents to allow")
        }
        gatewayOptions.trustedDocumentsOnly = true
    }
    let endedSessions = gatewayOptions.endedSessions
    let authenticator = await JWTAuthenticator(
        hmacSecret: backend.jwtSecret, jwks: backend.jwks, audience: configuration.jwtAudience,
        issuer: configuration.jwtIssuer, endedSessions: gatewayOptions.endedSessions)
    let metrics = GatewayMetrics(storeCallCounts: backend.stores.callCounts)
    metrics.mirror(cache: gatewayOptions.cache)
    // The one stream of changes: the backend's feed where it has one, else this replica's own
    // writes (the service publishes them). Each concern subscribes to it.
    let stream = ChangeStream(feed: backend.changeFeed, writesOnlyThroughThisProcess: backend.writesOnlyThroughGateway)
    gatewayOptions.changes = stream
    stream.subscribe { event in
        if case .sessionsEnded(let ends) = event { endedSessions.apply(ends) }
    }
    var coherence: CacheCoherence?
    if let feed = backend.changeFeed {
        endedSessions.setAnnouncer { end in
            do {
                try await feed.announce(end)
            } catch {
                logger.error(
                    "could not tell the other replicas that a session ended; they accept its access token until it expires",
                    metadata: ["error": "\(error)"])
            }
        }
        if gatewayOptions.cache.isEnabled {
            let follower = CacheCoherence(cache: gatewayOptions.cache, feed: feed, logger: logger)
            stream.subscribe { event in await follower.handle(event) }
            metrics.mirror(coherence: follower)
            coherence = follower
        }
        background.add(stream)
    }
    let service = try GatewayService(stores: backend.stores, options: gatewayOptions, logger: logger)
    // Sessions that ended before this start (a restart) stay ended, where the store can tell.
    do {
        try await service.restoreEndedSessions()
    } catch {
        logger.warning("could not read the sessions that ended before this start", metadata: ["error": "\(error)"])
    }
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
    // Subscriptions: the hub routes the stream's events; every stream registers how to end it.
    let hub = SubscriptionHub(service: service, changes: stream, limits: configuration.subscriptions, logger: logger)
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
        coherence: coherence)
    if !backend.housekeeping.isEmpty {
        background.add(Housekeeping(tasks: backend.housekeeping, interval: .seconds(600), logger: logger))
    }

    let router = Router(context: GatewayRequestContext.self)
    router.add(middleware: CORSMiddleware(allowedOrigins: configuration.corsAllowedOrigins))
    if configuration.tracing { router.add(middleware: RequestTracingMiddleware()) }
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
    router.get("/metrics", use: operational.metrics)
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
