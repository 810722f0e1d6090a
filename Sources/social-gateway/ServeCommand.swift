import ArgumentParser
import Foundation
import GatewayAssembly
import GatewayServer

/// `social-gateway serve`: runs the GraphQL gateway over HTTP.
///
/// Every flag has an environment variable behind it (flags win), so the same binary runs from a
/// shell, a Dockerfile or a platform that only sets `PORT`.
struct ServeCommand: AsyncParsableCommand {
    /// The defaults the help shows: the configuration owns them.
    static let defaults = ServerConfiguration()

    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the GraphQL gateway over HTTP.",
        discussion: """
            With no configuration it serves the embedded store in ./data/ (created and seeded with \
            three demo users on first start) on http://\(defaults.host):\(defaults.port):

              GET  /                 the playground (works offline)
              POST /graphql          GraphQL over HTTP (JSON, batches, multipart uploads)
              GET  /graphql          queries only
              GET  /healthz /readyz  liveness and readiness
              GET  /metrics          Prometheus metrics

            Set SUPABASE_URL and SUPABASE_ANON_KEY (or SUPABASE_PUBLISHABLE_KEY) to serve a \
            Supabase project instead; tokens are then verified with SUPABASE_JWT_SECRET and/or the \
            project's JWKS (SUPABASE_JWKS_URL). In embedded mode tokens are signed with a dev secret \
            kept in the data folder: `social-gateway token alice_wonder` prints one.

            Other environment variables: PUBLIC_URL, MAX_BODY_BYTES, MAX_BATCH_SIZE, \
            MAX_UPLOAD_FILES, MAX_CONCURRENT_QUERIES, CORS_ORIGINS, JWT_SECRET, JWKS_URL, JWT_AUDIENCE, \
            INTROSPECTION, DEMO_TOKENS, SEED_DEMO_DATA, RESET_LINKS_IN_LOG, TRUSTED_PROXIES, \
            REQUEST_HEAD_TIMEOUT, REQUEST_BODY_TIMEOUT, \
            REQUEST_BODY_MIN_RATE, SHUTDOWN_DRAIN_DELAY, SHUTDOWN_GRACE_PERIOD, LOG_LEVEL, \
            COST_MODE, MAX_COST, COST_LIST_SIZE, RATE_LIMIT_MODE, RATE_LIMIT_QUERY_CAPACITY, \
            RATE_LIMIT_QUERY_PER_SECOND, RATE_LIMIT_MUTATION_CAPACITY, RATE_LIMIT_MUTATION_PER_SECOND, \
            RATE_LIMIT_MAX_KEYS. \
            See docs/SERVER.md.

            SIGTERM or SIGINT shuts down gracefully: /readyz turns 503, requests in flight \
            finish, then the command exits 0.
            """
    )

    @Option(help: ArgumentHelp("Interface to listen on (env HOST; default \(ServeCommand.defaults.host)). Use 0.0.0.0 in containers.", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("TCP port (env PORT; default \(ServeCommand.defaults.port)).", valueName: "port"))
    var port: Int?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Folder of the cache, the dev secret and the embedded store (env DATA_DIR; default ./\(ServeCommand.defaults.dataDirectory.relativePath)).", valueName: "path"))
    var dataDirectory: String?

    @Option(name: .customLong("public-url"), help: ArgumentHelp("Base URL clients reach this server at, for avatar links (env PUBLIC_URL).", valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("cors-origin"), help: ArgumentHelp("A browser origin allowed to call the API; repeat it, or '*' (env CORS_ORIGINS, comma-separated).", valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(name: .customLong("max-body-bytes"), help: ArgumentHelp("Largest JSON request body (env MAX_BODY_BYTES; default \(ServeCommand.defaults.maxBodyBytes)).", valueName: "bytes"))
    var maxBodyBytes: Int?

    @Option(name: .customLong("max-batch-size"), help: ArgumentHelp("Most operations in one batch request (env MAX_BATCH_SIZE; default \(ServeCommand.defaults.maxBatchSize)).", valueName: "count"))
    var maxBatchSize: Int?

    @Option(name: .customLong("max-upload-files"), help: ArgumentHelp("Most files in one upload request (env MAX_UPLOAD_FILES; default \(ServeCommand.defaults.maxUploadFiles)).", valueName: "count"))
    var maxUploadFiles: Int?

    @Flag(inversion: .prefixedNo, help: "Allow introspection queries (env INTROSPECTION; default \(ServeCommand.defaults.gateway.introspection ? "on" : "off"), the playground needs it).")
    var introspection: Bool?

    @Option(help: ArgumentHelp("The response cache in <data-dir>/cache.sqlite: on or off (env CACHE; default \(ServeCommand.defaults.responseCache ? "on" : "off")).", valueName: "on|off"))
    var cache: String?

    @Option(name: .customLong("cache-max-bytes"), help: ArgumentHelp("Size bound of the response cache (env CACHE_MAX_BYTES; default \(ServeCommand.defaults.cacheMaxBytes)).", valueName: "bytes"))
    var cacheMaxBytes: Int?

    @Option(name: .customLong("cache-memory-bytes"), help: ArgumentHelp("Bytes of cached answers also kept in memory (env CACHE_MEMORY_BYTES; default \(ServeCommand.defaults.cacheMemoryBytes); 0 keeps none).", valueName: "bytes"))
    var cacheMemoryBytes: Int?

    @Option(name: .customLong("compression-min-bytes"), help: ArgumentHelp("Smallest answer sent gzip- or deflate-compressed to clients that accept it (env COMPRESSION_MIN_BYTES; default \(ServeCommand.defaults.compressionMinBytes)).", valueName: "bytes"))
    var compressionMinBytes: Int?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (env LOG_LEVEL; default \(ServeCommand.defaults.logLevel)).", valueName: "level"))
    var logLevel: String?

    @Flag(name: .customLong("bench-ceiling-route"), help: .hidden)
    var benchCeilingRoute = false

    @Option(name: .customLong("bench-seed-profiles"), help: .hidden)
    var benchSeedProfiles: Int?

    @Option(name: .customLong("bench-seed-follows-per-profile"), help: .hidden)
    var benchSeedFollowsPerProfile: Int?

    @Option(name: .customLong("bench-seed-posts-per-profile"), help: .hidden)
    var benchSeedPostsPerProfile: Int?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
        for (name, value) in [("--max-body-bytes", maxBodyBytes), ("--max-batch-size", maxBatchSize),
                              ("--max-upload-files", maxUploadFiles)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1.") }
        }
    }

    func run() async throws {
        let settings: GatewaySettings
        do {
            settings = try makeSettings()
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        // Once per process, before any logger exists: request metadata is rendered only for
        // lines that are written.
        DeferredMetadataLogHandler.bootstrap()
        do {
            try await runGateway(settings)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Environment first, flags on top.
    func makeSettings() throws -> GatewaySettings {
        var settings = try GatewaySettings.fromEnvironment()
        var configuration = settings.server
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        if let dataDirectory { configuration.dataDirectory = URL(fileURLWithPath: dataDirectory, isDirectory: true) }
        if let publicURL { configuration.publicURL = publicURL }
        if !corsOrigins.isEmpty { configuration.corsAllowedOrigins = corsOrigins.flatMap(ServerConfiguration.parseOrigins) }
        if let maxBodyBytes { configuration.maxBodyBytes = maxBodyBytes }
        if let maxBatchSize { configuration.maxBatchSize = maxBatchSize }
        if let maxUploadFiles { configuration.maxUploadFiles = maxUploadFiles }
        if let introspection { configuration.gateway.introspection = introspection }
        if let logLevel { configuration.logLevel = try ServerConfiguration.parseLogLevel(logLevel) }
        if let cache {
            switch cache.lowercased() {
            case "on": configuration.responseCache = true
            case "off": configuration.responseCache = false
            default: throw ValidationError("--cache must be on or off, got \"\(cache)\".")
            }
        }
        if let cacheMaxBytes { configuration.cacheMaxBytes = cacheMaxBytes }
        if let cacheMemoryBytes { configuration.cacheMemoryBytes = cacheMemoryBytes }
        if let compressionMinBytes { configuration.compressionMinBytes = compressionMinBytes }
        settings.server = configuration
        if benchCeilingRoute { settings.loadTest.ceilingRoute = true }
        if let benchSeedProfiles { settings.loadTest.seedProfiles = benchSeedProfiles }
        if let benchSeedFollowsPerProfile { settings.loadTest.seedFollowsPerProfile = benchSeedFollowsPerProfile }
        if let benchSeedPostsPerProfile { settings.loadTest.seedPostsPerProfile = benchSeedPostsPerProfile }
        return settings
    }
}
