import Foundation
import GatewayServer

/// Everything `social-gateway serve` (and `token`) is told: the server's configuration, the
/// store's settings and the load-test hooks, read from one environment so that every command
/// resolves the same data folder, secret and audience.
///
/// ```swift
/// var settings = try GatewaySettings.fromEnvironment()
/// settings.server.port = 9000
/// try await runGateway(settings)
/// ```
public struct GatewaySettings: Sendable {
    public var server = ServerConfiguration()
    public var store = StoreSettings()
    public var loadTest = LoadTestHooks()

    public init(server: ServerConfiguration = ServerConfiguration(), store: StoreSettings = StoreSettings()) {
        self.server = server
        self.store = store
    }

    /// The server's variables, then the store's; a Supabase project supplies the token secret and
    /// JWKS when `JWT_SECRET` and `JWKS_URL` do not.
    /// - Throws: `ConfigurationError`, naming the variable.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> GatewaySettings {
        var settings = GatewaySettings(
            server: try ServerConfiguration.fromEnvironment(environment), store: try StoreSettings.fromEnvironment(environment))
        if let supabase = settings.store.supabase {
            settings.server.jwtSecret = settings.server.jwtSecret ?? supabase.jwtSecret
            settings.server.jwksURL = settings.server.jwksURL ?? supabase.jwksURL
        }
        return settings
    }

    /// Whether the embedded store gets the demo users and their published password: as
    /// `SEED_DEMO_DATA` says, else only on a loopback address (a deployed server never has them).
    public var demoDataEnabled: Bool { store.seedDemoData ?? ServerConfiguration.isLoopback(server.host) }

    /// Whether reset links are logged in full (`RESET_LINKS_IN_LOG`, else loopback only).
    public var resetLinksLogged: Bool { store.resetLinksInLog ?? ServerConfiguration.isLoopback(server.host) }

    /// The HS256 secret tokens are signed and verified with: `JWT_SECRET` (or Supabase's), else,
    /// for the embedded store, the dev secret in the data folder (created on first use). Nil for a
    /// Supabase project that only publishes a JWKS.
    /// - Throws: ``ConfigurationError`` for a secret too weak to sign with; file errors.
    public func signingSecret() throws -> String? {
        let variable = store.isEmbedded ? "JWT_SECRET" : "JWT_SECRET (or SUPABASE_JWT_SECRET)"
        if let secret = server.jwtSecret {
            try JWTAuthenticator.checkSecret(secret, variable: variable)
            return secret
        }
        return store.isEmbedded ? try DevSecret.loadOrCreate(in: server.dataDirectory) : nil
    }
}
