import EmbeddedStore
import Foundation
import GatewayServer
import Logging
import SocialGateway
import SupabaseStore

/// The composition root: the one place that knows every store. It opens the store the settings
/// name and describes it to the server as a ``GatewayBackend`` (ports, token keys, avatar files,
/// demo users), so the HTTP and GraphQL layers only ever see the domain's ports.
public enum BackendAssembly {
    /// Opens the configured store and loads the token keys.
    /// - Throws: ``ServerConfigurationError`` or `SupabaseConfigurationError` with a message for the
    ///   operator; store errors when the data folder is unusable.
    public static func open(_ settings: GatewaySettings, logger: Logger) async throws -> GatewayBackend {
        guard let supabase = settings.store.supabase else {
            return try await openEmbeddedBackend(settings, logger: logger).backend
        }
        let secret = try settings.signingSecret()
        let store = try await SupabaseStore.connect(configuration: supabase, logger: logger)
        do {
            // A project that also has the shared secret may publish no JWKS (legacy projects).
            let jwks = try await loadJWKS(settings.server, required: secret == nil, logger: logger)
            return GatewayBackend(
                stores: GatewayStores(profiles: store, follows: store, avatars: store), jwtSecret: secret, jwks: jwks,
                summary: "Supabase", shutdown: { try? await store.shutdown() })
        } catch {
            try? await store.shutdown()
            throw error
        }
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
        return try await EmbeddedStore.open(
            dataDirectory: settings.server.dataDirectory, seedDemoData: settings.store.seedDemoData, options: options)
    }

    /// An opened embedded store as the server sees it: its ports and counters, the avatar files it
    /// keeps, and the demo users the playground may act as.
    public static func embedded(_ store: EmbeddedStore, jwtSecret: String?, jwks: JWKSCache? = nil) -> GatewayBackend {
        GatewayBackend(
            stores: GatewayStores(profiles: store, follows: store, avatars: store, callCounts: { store.callCounts }),
            jwtSecret: jwtSecret, jwks: jwks, avatarFiles: store,
            demoUsers: DemoData.users.map { DemoUser(id: $0.id, handle: $0.handle, displayName: $0.displayName) },
            summary: "embedded store at \(store.dataDirectory.path)")
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
