import EmbeddedStore
import Foundation
import Logging
import SocialDomain
import SocialGateway
import SupabaseStore

/// The store behind the server, opened from the configuration: the embedded SQLite store in the
/// data folder (the default), or a Supabase project when `SUPABASE_URL` is set.
///
/// Also decides how tokens are verified in each mode: embedded uses the dev secret from the data
/// folder (or `JWT_SECRET`), Supabase uses `SUPABASE_JWT_SECRET` and/or the project's JWKS.
public struct GatewayBackend: Sendable {
    public enum Store: Sendable {
        case embedded(EmbeddedStore)
        case supabase(SupabaseStore)
    }

    public let store: Store
    public let stores: GatewayStores
    /// The HS256 secret tokens are verified with, if any.
    public let jwtSecret: String?
    /// The JWKS for ES256/RS256 tokens, if any.
    public let jwks: JWKSCache?

    /// A backend from parts (tests wrap a store's ports, e.g. to make them fail).
    public init(store: Store, stores: GatewayStores, jwtSecret: String?, jwks: JWKSCache?) {
        self.store = store
        self.stores = stores
        self.jwtSecret = jwtSecret
        self.jwks = jwks
    }

    /// The embedded store, when that is the backend (avatar files, demo tokens).
    public var embedded: EmbeddedStore? {
        if case .embedded(let store) = store { store } else { nil }
    }

    /// Opens the configured store and loads the verification keys.
    /// - Throws: ``ServerConfigurationError`` or `SupabaseConfigurationError` with a message for
    ///   the operator; store errors when the data folder is unusable.
    public static func open(_ configuration: ServerConfiguration, logger: Logger) async throws -> GatewayBackend {
        if let secret = configuration.jwtSecret {
            try JWTAuthenticator.checkSecret(
                secret, variable: configuration.supabase == nil ? "JWT_SECRET" : "JWT_SECRET (or SUPABASE_JWT_SECRET)")
        }
        if let supabase = configuration.supabase {
            let store = try await SupabaseStore.connect(configuration: supabase, logger: logger)
            var jwks: JWKSCache?
            if let url = configuration.jwksURL {
                let cache = JWKSCache(url: url, refreshInterval: configuration.jwksRefreshInterval, logger: logger)
                do {
                    try await cache.refresh()
                } catch where configuration.jwtSecret != nil {
                    // A legacy project signs with the shared secret only; its JWKS may be absent.
                    logger.warning("JWKS unavailable, only HS256 tokens will verify", metadata: ["error": "\(error)"])
                }
                jwks = cache
            }
            let stores = GatewayStores(profiles: store, follows: store, avatars: store)
            return GatewayBackend(store: .supabase(store), stores: stores, jwtSecret: configuration.jwtSecret, jwks: jwks)
        }
        var options = EmbeddedStore.Options()
        options.publicBaseURL = configuration.resolvedPublicURL
        options.errorLog = { detail in logger.error("store failure", metadata: ["detail": "\(detail)"]) }
        let store = try await EmbeddedStore.open(
            dataDirectory: configuration.dataDirectory, seedDemoData: configuration.seedDemoData, options: options)
        // `user1` is private: only an operator lookup finds it, and tells a restart from a first start.
        if configuration.benchSeedProfiles > 0, try await store.operatorProfileID(forHandle: "user1") == nil {
            let summary = try await store.seed(
                profiles: configuration.benchSeedProfiles, followsPerProfile: configuration.benchSeedFollowsPerProfile)
            logger.notice("seeded load-test profiles", metadata: ["profiles": "\(summary.profiles)", "follows": "\(summary.follows)"])
        }
        let secret = try configuration.jwtSecret ?? DevSecret.loadOrCreate(in: configuration.dataDirectory)
        var jwks: JWKSCache?
        if let url = configuration.jwksURL {
            jwks = JWKSCache(url: url, refreshInterval: configuration.jwksRefreshInterval, logger: logger)
            try await jwks?.refresh()
        }
        let stores = GatewayStores(profiles: store, follows: store, avatars: store, callCounts: { store.callCounts })
        return GatewayBackend(store: .embedded(store), stores: stores, jwtSecret: secret, jwks: jwks)
    }

    /// Releases the store's connections (Supabase's HTTP client must be shut down).
    public func shutdown() async {
        if case .supabase(let store) = store { try? await store.shutdown() }
    }
}
