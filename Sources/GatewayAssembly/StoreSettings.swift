import Foundation
import GatewayServer
import PostgresStore
import SocialDomain
import SupabaseStore

/// Which store backs the gateway, and how it starts.
///
/// `GATEWAY_STORE` (`embedded`, `supabase` or `postgres`) chooses; without it the environment
/// does, in this order: `SUPABASE_URL` set means Supabase (PostgREST + Storage), else
/// `DATABASE_URL` set means PostgreSQL directly, else the embedded SQLite store in the data
/// folder. Both may be set: in Supabase mode `DATABASE_URL` only feeds the response cache's
/// change notifications; in PostgreSQL mode (`GATEWAY_STORE=postgres`) `SUPABASE_URL` only says
/// where avatars go (Supabase Storage; without it, files in the data folder).
///
/// Adding a store means a case here, its environment variables in ``fromEnvironment(_:)`` and its
/// opening in ``BackendAssembly``; nothing in the server or the GraphQL service changes.
public struct StoreSettings: Sendable {
    /// The stores the gateway can run on.
    public enum Kind: String, Sendable, CaseIterable {
        case embedded, supabase, postgres
    }

    /// The chosen store.
    public var kind: Kind = .embedded
    /// Seed the demo users, and their published password, into an empty embedded store
    /// (`SEED_DEMO_DATA`). Nil, the default, means only while the server listens on a loopback
    /// address (``GatewaySettings/demoDataEnabled``), the rule of demo tokens: `true` elsewhere
    /// logs a warning, since anyone could then sign in as a demo user.
    public var seedDemoData: Bool?
    /// Write password-reset links in full to the log (`RESET_LINKS_IN_LOG`), the embedded store's
    /// only way to deliver them, since it sends no mail. Nil, the default, means only on a
    /// loopback address (development); `true` elsewhere logs a warning, since whoever reads the
    /// log can then take over any account that asks for a reset.
    public var resetLinksInLog: Bool?
    /// A Supabase project (`SUPABASE_URL`, `SUPABASE_ANON_KEY` ...).
    public var supabase: SupabaseConfiguration?
    /// A PostgreSQL database (`DATABASE_URL` ...).
    public var postgres: PostgresConfiguration?

    public init() {}

    /// Whether the embedded store backs the server.
    public var isEmbedded: Bool { kind == .embedded }

    /// - Throws: `ConfigurationError` for a half-configured project, a malformed `DATABASE_URL`,
    ///   a bad `SEED_DEMO_DATA` or `GATEWAY_STORE`, or a store chosen without its variables.
    public static func fromEnvironment(_ environment: [String: String]) throws -> StoreSettings {
        var settings = StoreSettings()
        settings.seedDemoData = try EnvironmentValue.bool("SEED_DEMO_DATA", in: environment)
        settings.resetLinksInLog = try EnvironmentValue.bool("RESET_LINKS_IN_LOG", in: environment)
        settings.supabase = try SupabaseConfiguration.fromEnvironment(environment)
        settings.postgres = try PostgresConfiguration.fromEnvironment(environment)
        if let chosen = environment["GATEWAY_STORE"], !chosen.isEmpty {
            guard let kind = Kind(rawValue: chosen.lowercased()) else {
                throw ConfigurationError("GATEWAY_STORE must be embedded, supabase or postgres, not \(chosen)")
            }
            settings.kind = kind
        } else {
            settings.kind = settings.supabase != nil ? .supabase : settings.postgres != nil ? .postgres : .embedded
        }
        switch settings.kind {
        case .supabase where settings.supabase == nil:
            throw ConfigurationError("GATEWAY_STORE=supabase needs SUPABASE_URL and SUPABASE_ANON_KEY")
        case .postgres where settings.postgres == nil:
            throw ConfigurationError("GATEWAY_STORE=postgres needs DATABASE_URL")
        default:
            return settings
        }
    }
}
