import Foundation
import Logging
import SocialDomain
import SocialGateway

/// How the HTTP server runs, with the defaults a first run needs: 127.0.0.1:8080, its files in
/// `./data/`, limits on. Which store backs it is the composition root's business
/// (`GatewayAssembly`'s `GatewaySettings` holds this beside the store's settings).
///
/// Each setting is read from an environment variable (``fromEnvironment(_:)``) and the owner of
/// its default: `serve`'s flags override it and their help shows the default from here; tests
/// build it directly with a temporary data folder and port 0.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0
/// let gateway = try await GatewayComposition.assemble(configuration: configuration, backend: backend, logger: logger)
/// let app = try await buildApplication(configuration: configuration, gateway: gateway, logger: logger)
/// ```
public struct ServerConfiguration: Sendable {
    /// Interface to listen on (`HOST`). Containers use 0.0.0.0.
    public var host = "127.0.0.1"
    /// TCP port (`PORT`); 0 picks a free one (tests).
    public var port = 8080
    /// The server's folder (`DATA_DIR`): the response cache, the dev JWT secret, and the
    /// embedded store's database and avatars.
    public var dataDirectory = URL(fileURLWithPath: "data", isDirectory: true)
    /// Base of public URLs such as avatars (`PUBLIC_URL`); default `http://<host>:<port>`.
    public var publicURL: String?

    /// Connections the kernel holds for the server before it accepts them (`LISTEN_BACKLOG`,
    /// 4096; Linux caps it at `net.core.somaxconn`). Hummingbird's default of 256 overflowed when
    /// a thousand clients connected at once: the kernel dropped the rest and they retried a second
    /// or more later (docs/performance/2026-11-28-many-connections.md).
    public var listenBacklog = 4096
    /// The longest a GraphQL request may wait in the server before its handler starts; past it,
    /// it is refused at once with 503 and `Retry-After` (``QueueWaitGate``; `MAX_QUEUE_WAIT`,
    /// 0.5 s; zero: never refused).
    public var maxQueueWait: Duration = .milliseconds(500)

    /// Largest JSON body, and largest multipart `operations`/`map` field (`MAX_BODY_BYTES`, 1 MB).
    public var maxBodyBytes = 1024 * 1024
    /// Most operations in one batch (`MAX_BATCH_SIZE`, 20).
    public var maxBatchSize = 20
    /// Most files in one multipart request (`MAX_UPLOAD_FILES`, 5).
    public var maxUploadFiles = 5
    /// Most multipart uploads received at once (`MAX_CONCURRENT_UPLOADS`, 8); past it 503 with
    /// `Retry-After`.
    public var maxConcurrentUploads = 8
    /// Where uploaded files are spooled while they stream in (`UPLOAD_SPOOL_DIR`, the system's
    /// temporary folder).
    public var uploadSpoolDirectory = FileManager.default.temporaryDirectory
    /// Most values (object members and array items, at every level) in one JSON document of a
    /// request: the body, a GET `variables` or `extensions`, a multipart `operations` or `map`
    /// (`MAX_JSON_VALUES`, 10,000). Refused with 400 `TOO_MANY_JSON_VALUES` while it is read.
    public var maxJSONValues = 10_000
    /// Reverse proxies whose `X-Forwarded-For` names the client (`TRUSTED_PROXIES`: addresses or
    /// CIDR ranges, comma-separated). None by default: the client is the TCP peer.
    public var trustedProxies = TrustedProxies.none
    /// Origins allowed to call from a browser (`CORS_ORIGINS`, comma-separated; `*` for any).
    /// Empty: same-origin only.
    public var corsAllowedOrigins: [String] = []

    /// Expected `aud` claim of bearer tokens (`JWT_AUDIENCE`, default `authenticated` like Supabase).
    public var jwtAudience = "authenticated"
    /// HS256 secret (`JWT_SECRET`; in Supabase mode `SUPABASE_JWT_SECRET`). Nil: the store's
    /// default (the embedded store's is the dev secret generated into the data folder).
    public var jwtSecret: String?
    /// JWKS URL for ES256/RS256 tokens (`JWKS_URL`; in Supabase mode the project's JWKS).
    public var jwksURL: URL?
    /// How often the JWKS is fetched again (also on a token with an unknown key id).
    public var jwksRefreshInterval: Duration = .seconds(600)
    /// The required `iss` claim of bearer tokens (`JWT_ISSUER`; Supabase's tokens carry
    /// `https://<project>.supabase.co/auth/v1`). Nil: not checked.
    public var jwtIssuer: String?
    /// Serve `GET /playground/demo-tokens` (stores with demo users only; `DEMO_TOKENS`): anyone who can
    /// reach the server can then act as a demo user, which is the point of a local playground
    /// and a hole anywhere else. Nil (the default) means on only while the server listens on a
    /// loopback address; `true` turns it on anywhere, with a warning at start.
    public var demoTokens: Bool?

    /// Whether demo tokens are handed out: explicitly, or by default on loopback only.
    public var demoTokensEnabled: Bool { demoTokens ?? Self.isLoopback(host) }

    /// Whether `host` only accepts connections from this machine.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        return name == "localhost" || name == "::1" || name == "[::1]" || name.hasPrefix("127.")
    }

    /// Run only the documents of ``persistedQueriesManifest`` (`PERSISTED_QUERIES_ONLY`).
    public var persistedQueriesOnly = false
    /// A trusted-documents manifest (`PERSISTED_QUERIES_MANIFEST`): Apollo's persisted query
    /// manifest or a JSON object of hash -> document. Required by ``persistedQueriesOnly``.
    public var persistedQueriesManifest: URL?
    /// The bound on the bytes of automatically persisted queries (`PERSISTED_QUERIES_MAX_BYTES`,
    /// 4 MiB), apart from the response cache's.
    public var persistedQueriesMaxBytes = 4 << 20

    /// The GraphQL service's limits (depth, cost, tokens) and introspection (`INTROSPECTION`);
    /// the graph kept in memory for every viewer is on (`GRAPH_MEMORY`, `GRAPH_MEMORY_BYTES`).
    public var gateway: GatewayOptions = {
        var options = GatewayOptions()
        options.graphMemory = GraphMemory.Limits()
        return options
    }()
    /// The SQLite response cache in `<data-dir>/cache.sqlite` (`CACHE`, default on).
    public var responseCache = true
    /// The cache's size bound in bytes (`CACHE_MAX_BYTES`, default 64 MiB).
    public var cacheMaxBytes = 64 << 20
    /// The bound on cached answers kept in memory, in bytes (`CACHE_MEMORY_BYTES`, default
    /// 64 MiB, never more than ``cacheMaxBytes``; 0 reads every hit from the file).
    public var cacheMemoryBytes = 64 << 20
    /// The smallest GraphQL answer sent compressed (gzip or deflate) to a client that accepts it,
    /// in bytes (`COMPRESSION_MIN_BYTES`, default 1024).
    ///
    /// Why 1 KiB: deflating has a fixed cost (libdeflate clears its tables on every call: some
    /// 10-25 us here even for 128 bytes), and an answer under 1 KiB with its headers fits one
    /// TCP segment (1,448 bytes) either way, so compressing it saves no packet and no round trip.
    /// And it is the response cache's own threshold: every cached answer sent compressed is sent
    /// from the cache's stored deflate data. See docs/SERVER.md, "Compression".
    public var compressionMinBytes = ServerConfiguration.defaultCompressionMinBytes
    /// ``compressionMinBytes``'s default.
    public static let defaultCompressionMinBytes = 1024
    /// Opens the response cache when ``responseCache`` is on: the composition root sets the
    /// SQLite cache here (`GatewayAssembly`), so the HTTP layer never names a cache. Unset, the
    /// server caches nothing.
    public var openResponseCache: (@Sendable (ServerConfiguration, Logger) -> any ResponseCaching)?
    /// How long clients may take to send a request head and body (`REQUEST_HEAD_TIMEOUT`,
    /// `REQUEST_BODY_TIMEOUT`, `REQUEST_BODY_MIN_RATE`): slow clients are cut, see
    /// ``RequestDeadlines``.
    public var requestDeadlines = RequestDeadlines()
    /// On SIGTERM/SIGINT, how long `/readyz` answers 503 while the server still serves, before it
    /// stops accepting connections (`SHUTDOWN_DRAIN_DELAY`, 0 s; behind a load balancer that polls
    /// readiness, set it to a little more than the polling interval).
    public var shutdownDrainDelay: Duration = .zero
    /// The bound on a graceful shutdown, drain delay included (`SHUTDOWN_GRACE_PERIOD`, 25 s: under
    /// Kubernetes' default 30 s before SIGKILL). Requests still running after it are cancelled.
    public var shutdownGracePeriod: Duration = .seconds(25)
    /// Log level (`LOG_LEVEL`: trace, debug, info, notice, warning, error, critical).
    public var logLevel: Logger.Level = .info
    /// A listener of its own for `/metrics` (`METRICS_PORT`; unset: none; 0 picks a free port),
    /// bound to ``metricsHost``. With it, the API port no longer serves `/metrics` unless
    /// ``metricsToken`` is set (``MetricsAccess``).
    public var metricsPort: Int?
    /// The interface of the metrics listener (`METRICS_HOST`, 127.0.0.1).
    public var metricsHost = "127.0.0.1"
    /// A bearer token that reads `/metrics` (`METRICS_TOKEN`): required wherever `/metrics` is
    /// served once set; the only way to read it on an API port off loopback.
    public var metricsToken: String?
    /// The bounds on subscriptions and streaming connections (`SUBSCRIPTION_*` variables).
    public var subscriptions = SubscriptionLimits()
    /// Spans for every request (``RequestTracingMiddleware``), on when the standard `OTEL_*`
    /// variables ask for traces (``TracingRequest``); off by default. The composition root then
    /// bootstraps the exporter.
    public var tracing = false
    /// Whether a client's W3C `traceparent` is the parent of its request's span, with its trace id
    /// and its sampling decision (`TRACING_TRUST_INCOMING`, false). Off, the request starts its own
    /// trace, sampled by the server's `OTEL_TRACES_SAMPLER`, and links to the client's span: a
    /// client cannot make the server export its spans (``RequestTracingMiddleware``). Turn it on
    /// when the callers are the operator's own services, whose sampling should carry through.
    public var tracingTrustsIncoming = false

    public init() {}

    /// The public base URL avatars are served under.
    public var resolvedPublicURL: String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let visibleHost = (host == "0.0.0.0" || host == "::") ? "127.0.0.1" : host
        return "http://\(visibleHost.contains(":") ? "[\(visibleHost)]" : visibleHost):\(port)"
    }

    /// A configuration from environment variables (the flags of `serve` override it).
    /// - Throws: ``ConfigurationError`` naming the variable with a bad value.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func int(_ name: String) throws -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text), number >= 0 else {
                throw ConfigurationError("\(name) must be a non-negative integer, got \"\(text)\"")
            }
            return number
        }
        func seconds(_ name: String) throws -> Duration? {
            guard let text = value(name) else { return nil }
            guard let number = Double(text), number >= 0, number.isFinite else {
                throw ConfigurationError("\(name) must be a non-negative number of seconds, got \"\(text)\"")
            }
            return .milliseconds(Int64((number * 1000).rounded()))
        }
        func bool(_ name: String) throws -> Bool? { try value(name).map { try parseBool($0, name: name) } }
        if let host = value("HOST") { configuration.host = host }
        if let port = try int("PORT") { configuration.port = port }
        if let dir = value("DATA_DIR") { configuration.dataDirectory = URL(fileURLWithPath: dir, isDirectory: true) }
        if let cache = try bool("CACHE") { configuration.responseCache = cache }
        if let bytes = try int("CACHE_MAX_BYTES") { configuration.cacheMaxBytes = bytes }
        if let bytes = try int("CACHE_MEMORY_BYTES") { configuration.cacheMemoryBytes = bytes }
        if let bytes = try int("COMPRESSION_MIN_BYTES") { configuration.compressionMinBytes = bytes }
        configuration.publicURL = value("PUBLIC_URL")
        if let limit = try int("MAX_BODY_BYTES") { configuration.maxBodyBytes = limit }
        if let limit = try int("MAX_BATCH_SIZE") { configuration.maxBatchSize = limit }
        if let limit = try int("MAX_UPLOAD_FILES") { configuration.maxUploadFiles = limit }
        if let limit = try int("MAX_CONCURRENT_UPLOADS") { configuration.maxConcurrentUploads = limit }
        if let limit = try int("MAX_CONCURRENT_QUERIES") { configuration.gateway.maxConcurrentQueries = limit }
        // The bytes of one answer (a batch's together); 0: no bound.
        if let limit = try int("MAX_RESPONSE_BYTES") { configuration.gateway.maxResponseBytes = limit == 0 ? nil : limit }
        if let backlog = try int("LISTEN_BACKLOG") { configuration.listenBacklog = max(backlog, 1) }
        if let wait = try seconds("MAX_QUEUE_WAIT") { configuration.maxQueueWait = wait }
        if let limit = try int("MAX_JSON_VALUES") { configuration.maxJSONValues = limit }
        if let dir = value("UPLOAD_SPOOL_DIR") { configuration.uploadSpoolDirectory = URL(fileURLWithPath: dir, isDirectory: true) }
        if let proxies = value("TRUSTED_PROXIES") { configuration.trustedProxies = try TrustedProxies(parsing: proxies) }
        if let origins = value("CORS_ORIGINS") { configuration.corsAllowedOrigins = parseOrigins(origins) }
        if let audience = value("JWT_AUDIENCE") { configuration.jwtAudience = audience }
        if let introspection = try bool("INTROSPECTION") { configuration.gateway.introspection = introspection }
        if try bool("GRAPH_MEMORY") == false { configuration.gateway.graphMemory = nil }
        if let bytes = try int("GRAPH_MEMORY_BYTES"), configuration.gateway.graphMemory != nil {
            configuration.gateway.graphMemory?.maxBytes = bytes
        }
        if let demo = try bool("DEMO_TOKENS") { configuration.demoTokens = demo }
        configuration.jwtIssuer = value("JWT_ISSUER")
        if let only = try bool("PERSISTED_QUERIES_ONLY") { configuration.persistedQueriesOnly = only }
        if let manifest = value("PERSISTED_QUERIES_MANIFEST") {
            configuration.persistedQueriesManifest = URL(fileURLWithPath: manifest)
        }
        if let bytes = try int("PERSISTED_QUERIES_MAX_BYTES") { configuration.persistedQueriesMaxBytes = bytes }
        if let timeout = try seconds("REQUEST_HEAD_TIMEOUT") { configuration.requestDeadlines.headTimeout = timeout }
        if let timeout = try seconds("REQUEST_BODY_TIMEOUT") { configuration.requestDeadlines.bodyTimeout = timeout }
        if let rate = try int("REQUEST_BODY_MIN_RATE") { configuration.requestDeadlines.bodyMinimumRate = rate }
        if let delay = try seconds("SHUTDOWN_DRAIN_DELAY") { configuration.shutdownDrainDelay = delay }
        if let grace = try seconds("SHUTDOWN_GRACE_PERIOD") { configuration.shutdownGracePeriod = grace }
        if let level = value("LOG_LEVEL") { configuration.logLevel = try parseLogLevel(level) }
        if let port = try int("METRICS_PORT") { configuration.metricsPort = port }
        if let host = value("METRICS_HOST") { configuration.metricsHost = host }
        configuration.metricsToken = value("METRICS_TOKEN")
        // Follows and follow requests per viewer (FollowLimits); 0 lifts a window's limit (load tests).
        let hourly = try int("FOLLOWS_PER_HOUR"), daily = try int("FOLLOWS_PER_DAY")
        if hourly != nil || daily != nil {
            func limiter(_ limit: Int?, _ standard: Int, _ window: Int) -> AttemptLimiter {
                AttemptLimiter(limit: limit == 0 ? Int.max : (limit ?? standard), window: .seconds(window), maxKeys: 20_000)
            }
            configuration.gateway.followLimits = FollowLimits(
                hourly: limiter(hourly, FollowLimits.perHour, 3600), daily: limiter(daily, FollowLimits.perDay, 86_400))
        }
        try readDemandControl(into: &configuration.gateway, value: value, int: int)
        if let limit = try int("SUBSCRIPTION_QUEUE_EVENTS") { configuration.subscriptions.queuedEventsPerSubscription = limit }
        if let limit = try int("SUBSCRIPTIONS_PER_CONNECTION") { configuration.subscriptions.subscriptionsPerConnection = limit }
        if let limit = try int("STREAMS_PER_VIEWER") { configuration.subscriptions.connectionsPerViewer = limit }
        if let seconds = try int("WEBSOCKET_INIT_TIMEOUT") { configuration.subscriptions.handshakeTimeoutSeconds = seconds }
        if let seconds = try int("WEBSOCKET_IDLE_TIMEOUT") { configuration.subscriptions.idleTimeoutSeconds = seconds }
        if let bytes = try int("WEBSOCKET_MAX_MESSAGE_BYTES") { configuration.subscriptions.maxMessageBytes = bytes }
        if let seconds = try int("STREAM_HEARTBEAT_SECONDS") { configuration.subscriptions.heartbeatSeconds = seconds }
        if let cost = try int("SUBSCRIPTION_MAX_COST") { configuration.subscriptions.maxCost = cost }
        if let limit = try int("SUBSCRIPTIONS_PER_VIEWER") { configuration.subscriptions.subscriptionsPerViewer = limit }
        if let seconds = try int("NOTIFICATION_REPEAT_WINDOW") { configuration.subscriptions.notificationRepeatWindowSeconds = seconds }
        if let limit = try int("STREAMS_PER_ADDRESS") { configuration.subscriptions.connectionsPerAddress = limit }
        if let limit = try int("MAX_STREAMING_CONNECTIONS") { configuration.subscriptions.maxConnections = limit }
        if let seconds = try int("WEBSOCKET_ANONYMOUS_IDLE_TIMEOUT") { configuration.subscriptions.anonymousIdleTimeoutSeconds = seconds }
        configuration.tracing = TracingRequest.isRequested(environment)
        if let trust = try bool("TRACING_TRUST_INCOMING") { configuration.tracingTrustsIncoming = trust }
        configuration.jwtSecret = value("JWT_SECRET")
        if let jwks = value("JWKS_URL") {
            guard let url = URL(string: jwks), url.scheme == "https" || url.scheme == "http" else {
                throw ConfigurationError("JWKS_URL must be an http(s) URL, got \"\(jwks)\"")
            }
            configuration.jwksURL = url
        }
        return configuration
    }

    /// `https://a.example, https://b.example` -> two origins, no trailing slashes.
    public static func parseOrigins(_ text: String) -> [String] {
        text.split(separator: ",").map { origin in
            var trimmed = origin.trimmingSpaces
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            return trimmed
        }.filter { !$0.isEmpty }
    }

    /// A boolean environment variable, the one parser every setting uses (the composition root's
    /// too): `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`, in any case.
    /// - Throws: ``ConfigurationError`` naming `name` for anything else.
    public static func parseBool(_ text: String, name: String) throws -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ConfigurationError("\(name) must be true or false, got \"\(text.lowercased())\"")
        }
    }

    /// - Throws: ``ConfigurationError`` for an unknown level name.
    public static func parseLogLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ConfigurationError(
                "unknown log level \"\(text)\" (use trace, debug, info, notice, warning, error or critical)")
        }
        return level
    }
}
