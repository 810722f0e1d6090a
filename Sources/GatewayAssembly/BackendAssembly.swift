import EmbeddedStore
import Foundation
import GatewayServer
import Logging
import MediaFiles
import PostgresStore
import SocialDomain
import SocialFixtures
import SocialGateway
import SupabaseStore

/// The composition root: the one place that knows every store. It opens the store the settings
/// name and describes it to the server as a ``GatewayBackend`` (ports, token keys, media files,
/// demo users), so the HTTP and GraphQL layers only ever see the domain's ports.
public enum BackendAssembly {
    /// Opens the configured store and loads the token keys.
    /// - Throws: `ConfigurationError` with a message for the operator; store errors when the
    ///   data folder is unusable.
    public static func open(_ settings: GatewaySettings, logger: Logger) async throws -> GatewayBackend {
        switch settings.store.kind {
        case .embedded: return try await openEmbeddedBackend(settings, logger: logger).backend
        case .supabase: return try await openSupabaseBackend(settings, logger: logger)
        case .postgres: return try await openPostgresBackend(settings, logger: logger)
        }
    }

    /// Supabase over HTTP; with `DATABASE_URL` too, the cache follows the database's change
    /// notifications.
    static func openSupabaseBackend(_ settings: GatewaySettings, logger: Logger) async throws -> GatewayBackend {
        guard let supabase = settings.store.supabase else {
            throw ConfigurationError("the Supabase store needs SUPABASE_URL and SUPABASE_ANON_KEY")
        }
        let secret = try settings.signingSecret()
        let store = try await SupabaseStore.connect(configuration: supabase, logger: logger)
        do {
            // A project that also has the shared secret may publish no JWKS (legacy projects).
            let jwks = try await loadJWKS(settings.server, required: secret == nil, logger: logger)
            let feed = changeFeed(settings, logger: logger)
            return GatewayBackend(
                stores: GatewayStores(
                    profiles: store, follows: store, posts: store, stories: store, media: store, accounts: store,
                    socialGraph: store),
                jwtSecret: secret, jwks: jwks,
                changeFeed: feed, summary: "Supabase", shutdown: { try? await store.shutdown() })
        } catch {
            try? await store.shutdown()
            throw error
        }
    }

    /// PostgreSQL directly; media files in Supabase Storage when `SUPABASE_URL` is set, else in
    /// the data folder (a ``MediaDirectory``, as the embedded store keeps them) served at
    /// `/avatars/` and `/stories/`.
    static func openPostgresBackend(_ settings: GatewaySettings, logger: Logger) async throws -> GatewayBackend {
        guard let configuration = settings.store.postgres else {
            throw ConfigurationError("the PostgreSQL store needs DATABASE_URL")
        }
        let secret = try settings.signingSecret()
        guard secret != nil || settings.server.jwksURL != nil else {
            throw ConfigurationError(
                "the PostgreSQL store verifies the tokens its database's policies trust: set JWT_SECRET (the JWT secret of the project) or JWKS_URL")
        }
        let store = try await PostgresStore.connect(configuration: configuration, logger: logger)
        var objectStore: SupabaseStore?
        do {
            let jwks = try await loadJWKS(settings.server, required: secret == nil, logger: logger)
            let media: any MediaStore
            var files: (any MediaFileSource)?
            var housekeeping: [@Sendable () async -> Void] = []
            if let supabase = settings.store.supabase {
                let storage = try await SupabaseStore.connect(configuration: supabase, logger: logger)
                objectStore = storage
                media = storage
            } else {
                let directory = MediaDirectory(root: settings.server.dataDirectory, publicBaseURL: settings.server.resolvedPublicURL)
                (media, files) = (directory, directory)
                // The rows expire in the database (purge_expired_stories); files kept here go an
                // hour after their story ended, by the time in their names.
                housekeeping.append {
                    directory.purgeFiles(
                        .story, writtenBefore: Date(timeIntervalSinceNow: -Double(Story.lifetimeMicroseconds / 1_000_000) - 3_600))
                }
            }
            // The feed carries the cache's invalidations, ended sessions and the activities
            // subscriptions tell: every replica follows it, cache or not.
            let feed = PostgresChangeFeed(configuration: configuration, logger: logger)
            let storage = objectStore
            return GatewayBackend(
                stores: GatewayStores(
                    profiles: store, follows: store, posts: store, stories: store, media: media,
                    // Accounts go to Supabase Auth when there is one; otherwise one clear error.
                    accounts: storage.map { $0 as any AccountStore } ?? NoAccounts(), socialGraph: store,
                    relations: store, snapshots: store.snapshots, callCounts: { store.callCounts }),
                jwtSecret: secret, jwks: jwks, mediaFiles: files, housekeeping: housekeeping,
                changeFeed: feed,
                summary: "PostgreSQL at \(configuration.endpoint.redacted)",
                shutdown: {
                    await store.shutdown()
                    try? await storage?.shutdown()
                })
        } catch {
            await store.shutdown()
            try? await objectStore?.shutdown()
            throw error
        }
    }

    /// The change feed in Supabase mode: `DATABASE_URL`'s notifications, or none (with one
    /// warning, since replicas then serve each other's stale answers until they expire, and a
    /// session signed out on one replica keeps its access token on the others until it expires).
    static func changeFeed(_ settings: GatewaySettings, logger: Logger) -> (any ChangeFeed)? {
        guard let configuration = settings.store.postgres else {
            logger.warning(
                "Supabase mode without DATABASE_URL: other replicas do not hear of this one's writes (their response caches serve stale answers until they expire) nor of its sign-outs (an ended session's access token works on them until it expires). Set DATABASE_URL for the database's change notifications.")
            return nil
        }
        return PostgresChangeFeed(configuration: configuration, logger: logger)
    }

    /// The embedded half of ``open(_:logger:)``, which also returns the store itself (for tests
    /// that read its counters and files).
    public static func openEmbeddedBackend(
        _ settings: GatewaySettings, logger: Logger
    ) async throws -> (backend: GatewayBackend, store: EmbeddedStore) {
        let secret = try settings.signingSecret()
        let store = try await openEmbedded(settings, logger: logger)
        try await settings.loadTest.seed(store, logger: logger)
        let jwks = try await loadJWKS(settings.server, required: true, logger: logger)
        return (embedded(store, jwtSecret: secret, jwks: jwks), store)
    }

    /// The embedded store in the server's data folder, errors logged with the server's logger.
    public static func openEmbedded(_ settings: GatewaySettings, logger: Logger) async throws -> EmbeddedStore {
        var options = EmbeddedStore.Options()
        options.publicBaseURL = settings.server.resolvedPublicURL
        options.errorLog = { detail in logger.error("store failure", metadata: ["detail": "\(detail)"]) }
        // The accounts' access tokens are the gateway's own JWTs, signed with the secret it verifies.
        if let secret = try settings.signingSecret() {
            options.accessTokens = await DevTokenIssuer(
                secret: secret, audience: settings.server.jwtAudience, issuer: settings.server.jwtIssuer)
        }
        let loopback = ServerConfiguration.isLoopback(settings.server.host)
        if settings.resetLinksLogged {
            if !loopback {
                logger.warning(
                    "RESET_LINKS_IN_LOG=true on a non-loopback address: every password-reset link is written to the log, and whoever reads the log can take over the account that asked for it")
            }
            options.passwordResetLog = { email, link in
                // There is no mail to send in embedded mode: the operator passes the link on.
                logger.notice("password reset requested (embedded mode sends no mail)", metadata: ["email": "\(email)", "link": "\(link)"])
            }
        } else {
            options.passwordResetLog = { _, _ in
                logger.notice("password reset requested; the embedded store sends no mail and RESET_LINKS_IN_LOG is off, so no link was delivered")
            }
        }
        let demo = settings.demoDataEnabled
        if demo, !loopback {
            logger.warning(
                "SEED_DEMO_DATA=true on a non-loopback address: anyone who can reach \(settings.server.host):\(settings.server.port) can sign in as a demo user with the published password. Use it only on a trusted network.")
        }
        let store = try await EmbeddedStore.open(dataDirectory: settings.server.dataDirectory, seedDemoData: demo, options: options)
        if !demo, try await store.lockDemoAccounts() > 0 {
            logger.warning("demo accounts found with the published password: their password is now disabled (demo data is off)")
        }
        return store
    }

    /// An opened embedded store as the server sees it: its ports and counters, the media files it
    /// keeps, and the demo users the playground may act as.
    public static func embedded(_ store: EmbeddedStore, jwtSecret: String?, jwks: JWKSCache? = nil) -> GatewayBackend {
        var backend = GatewayBackend(
            stores: GatewayStores(
                profiles: store, follows: store, posts: store, stories: store, media: store, accounts: store,
                socialGraph: store, relations: store, snapshots: store, callCounts: { store.callCounts }),
            jwtSecret: jwtSecret, jwks: jwks, mediaFiles: store,
            housekeeping: [{ _ = try? await store.purgeExpiredStories(now: Date()) }],
            // The demo users, and the showcase's private profile (seeded into served demo folders).
            demoUsers: DemoData.users.map { DemoUser(id: $0.id, handle: $0.handle, displayName: $0.displayName) }
                + (store.servesShowcase
                    ? [DemoUser(id: DemoShowcase.danaId, handle: DemoShowcase.privateUser.handle, displayName: DemoShowcase.privateUser.displayName)]
                    : []),
            // SQLite in this process: executions are CPU work. Two per core kept writes among
            // browsing clients under 50 ms at p99 here (4 on 2 cores: 33-35 ms against 38 with 8),
            // at about a tenth of random graphs' throughput (docs/performance/2026-11-25-issue-17-varied-requests-and-writes.md).
            concurrentQueries: 2 * max(1, ProcessInfo.processInfo.activeProcessorCount),
            summary: "embedded store at \(store.dataDirectory.path)")
        backend.writesOnlyThroughGateway = true
        return backend
    }

    /// The JWKS, fetched once at start; when it is not `required`, a failed fetch is a warning.
    static func loadJWKS(_ server: ServerConfiguration, required: Bool, logger: Logger) async throws -> JWKSCache? {
        guard let url = server.jwksURL else { return nil }
        let cache = JWKSCache(url: url, refreshInterval: server.jwksRefreshInterval, logger: logger)
        do {
            try await cache.refresh()
        } catch where !required {
            logger.warning("JWKS unavailable, only HS256 tokens will verify", metadata: ["error": "\(error)"])
        }
        return cache
    }
}
