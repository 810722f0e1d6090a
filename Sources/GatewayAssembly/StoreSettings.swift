import Foundation
import SupabaseStore

/// Which store backs the gateway, and how it starts: a Supabase project when `SUPABASE_URL` is
/// set, otherwise the embedded SQLite store in the server's data folder.
///
/// Adding a store means a case here, its environment variables in ``fromEnvironment(_:)`` and its
/// opening in ``BackendAssembly``; nothing in the server or the GraphQL service changes.
public struct StoreSettings: Sendable {
    /// Seed the demo users into an empty embedded store (`SEED_DEMO_DATA`, default on).
    public var seedDemoData = true
    /// A Supabase project (`SUPABASE_URL`, `SUPABASE_ANON_KEY` ...); nil means the embedded store.
    public var supabase: SupabaseConfiguration?

    public init() {}

    /// Whether the embedded store backs the server.
    public var isEmbedded: Bool { supabase == nil }

    /// - Throws: `SupabaseConfigurationError` for a half-configured project;
    ///   `ServerConfigurationError` for a bad `SEED_DEMO_DATA`.
    public static func fromEnvironment(_ environment: [String: String]) throws -> StoreSettings {
        var settings = StoreSettings()
        if let seed = try EnvironmentValue.bool("SEED_DEMO_DATA", in: environment) { settings.seedDemoData = seed }
        settings.supabase = try SupabaseConfiguration.fromEnvironment(environment)
        return settings
    }
}
