import Foundation
import GatewayServer
import Hummingbird
import Logging
import ServiceLifecycle
import SocialDomain
import SocialGateway
import UnixSignals

/// Builds the whole gateway over an opened backend: the service with its cache, trusted
/// documents and execution bound, the one change stream, the cache's coherence, the ended
/// sessions other replicas announce, the subscription hub and the services that run beside the
/// server. The HTTP module routes the result (``GatewayServer/AssembledGateway``) and constructs
/// none of it, so this is the one place that wires the gateway (issue 55).
public enum GatewayComposition {
    /// - Throws: ``ConfigurationError`` when `PERSISTED_QUERIES_ONLY` has no manifest; a
    ///   manifest that cannot be read; the service's start-up errors.
    public static func assemble(
        configuration: ServerConfiguration, backend: GatewayBackend, logger: Logger
    ) async throws -> AssembledGateway {
        var options = configuration.gateway
        if options.maxConcurrentQueries == nil { options.maxConcurrentQueries = backend.concurrentQueries }
        if configuration.responseCache, let open = configuration.openResponseCache {
            // A folder or file that cannot be used degrades to no caching (logged), never to a failed start.
            try? FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
            options.cache = open(configuration, logger)
        }
        if let manifest = configuration.persistedQueriesManifest {
            options.trustedDocuments = try TrustedDocuments.load(contentsOf: manifest)
            logger.notice("trusted documents loaded", metadata: ["count": "\(options.trustedDocuments!.count)"])
        }
        if configuration.persistedQueriesOnly {
            guard options.trustedDocuments != nil else {
                throw ConfigurationError(
                    "PERSISTED_QUERIES_ONLY=true needs PERSISTED_QUERIES_MANIFEST, the manifest of the documents to allow")
            }
            options.trustedDocumentsOnly = true
        }
        let endedSessions = options.endedSessions
        var services: [any Service] = []
        // The one stream of changes: the backend's feed where it has one, else this replica's own
        // writes (the service publishes them). Each concern subscribes to it.
        let stream = ChangeStream(feed: backend.changeFeed, writesOnlyThroughThisProcess: backend.writesOnlyThroughGateway)
        options.changes = stream
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
            if options.cache.isEnabled {
                let follower = CacheCoherence(cache: options.cache, feed: feed, logger: logger)
                stream.subscribe { event in await follower.handle(event) }
                coherence = follower
            }
            services.append(stream)
        }
        let service = try GatewayService(stores: backend.stores, options: options, logger: logger)
        // Sessions that ended before this start (a restart) stay ended, where the store can tell.
        do {
            try await service.restoreEndedSessions()
        } catch {
            logger.warning("could not read the sessions that ended before this start", metadata: ["error": "\(error)"])
        }
        // Subscriptions: the hub routes the stream's events.
        let hub = SubscriptionHub(service: service, changes: stream, limits: configuration.subscriptions, logger: logger)
        if !backend.housekeeping.isEmpty {
            services.append(Housekeeping(tasks: backend.housekeeping, interval: .seconds(600), logger: logger))
        }
        return AssembledGateway(
            backend: backend, service: service, changes: stream, coherence: coherence, hub: hub, services: services)
    }
}

/// The service group that runs the gateway over an opened backend: ``GatewayComposition`` builds
/// it, the server routes it (``GatewayServer/makeServiceGroup(configuration:gateway:logger:extraRoutes:gracefulShutdownSignals:onListening:telemetry:)``).
public func makeServiceGroup(
    configuration: ServerConfiguration, backend: GatewayBackend, logger: Logger, extraRoutes: [GatewayRoute] = [],
    gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
    onListening: (@Sendable (Int) async -> Void)? = nil, telemetry: (any Service)? = nil
) async throws -> ServiceGroup {
    let gateway = try await GatewayComposition.assemble(configuration: configuration, backend: backend, logger: logger)
    return try await makeServiceGroup(
        configuration: configuration, gateway: gateway, logger: logger, extraRoutes: extraRoutes,
        gracefulShutdownSignals: gracefulShutdownSignals, onListening: onListening, telemetry: telemetry)
}

/// The application over an opened backend, assembled here and routed by the server (tests share
/// a store with the app; services it needs running are added to `background`).
public func buildApplication(
    configuration: ServerConfiguration, backend: GatewayBackend, logger: Logger, extraRoutes: [GatewayRoute] = [],
    readiness: Readiness = Readiness(), background: BackgroundServices = BackgroundServices(),
    onListening: (@Sendable (Int) async -> Void)? = nil
) async throws -> some ApplicationProtocol {
    let gateway = try await GatewayComposition.assemble(configuration: configuration, backend: backend, logger: logger)
    return try await buildApplication(
        configuration: configuration, gateway: gateway, logger: logger, extraRoutes: extraRoutes, readiness: readiness,
        background: background, onListening: onListening)
}
