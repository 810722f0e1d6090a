import Foundation
import GatewayAssembly
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import SocialDomain
import SupabaseFake
import Testing

/// Which store the environment chooses, and what each mode says when something is missing.
@Suite("Store selection: GATEWAY_STORE, SUPABASE_URL, DATABASE_URL")
struct StoreSelectionTests {
    let database = "postgres://authenticator@127.0.0.1:5432/app?sslmode=disable"
    let supabase = ["SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "sb_publishable_test"]

    @Test("without GATEWAY_STORE: SUPABASE_URL means Supabase, else DATABASE_URL means PostgreSQL, else embedded")
    func precedence() throws {
        #expect(try GatewaySettings.fromEnvironment([:]).store.kind == .embedded)
        #expect(try GatewaySettings.fromEnvironment(["DATABASE_URL": database]).store.kind == .postgres)
        #expect(try GatewaySettings.fromEnvironment(supabase.merging(["DATABASE_URL": database]) { a, _ in a }).store.kind == .supabase)
        #expect(try GatewaySettings.fromEnvironment(supabase.merging(["DATABASE_URL": database, "GATEWAY_STORE": "postgres"]) { a, _ in a })
            .store.kind == .postgres)
    }

    @Test("a store chosen without its variables, an unknown store, a malformed DATABASE_URL: each a clear error naming it")
    func errors() {
        func message(_ environment: [String: String]) -> String {
            do {
                _ = try GatewaySettings.fromEnvironment(environment)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message(["GATEWAY_STORE": "postgres"]) == "GATEWAY_STORE=postgres needs DATABASE_URL")
        #expect(message(["GATEWAY_STORE": "supabase"]) == "GATEWAY_STORE=supabase needs SUPABASE_URL and SUPABASE_ANON_KEY")
        #expect(message(["GATEWAY_STORE": "mysql"]) == "GATEWAY_STORE must be embedded, supabase or postgres, not mysql")
        #expect(message(["DATABASE_URL": "postgres://127.0.0.1/app"]) == "DATABASE_URL names no user")
        #expect(message(["DATABASE_URL": database, "DATABASE_POOL_SIZE": "0"]) == "DATABASE_POOL_SIZE must be a whole number from 1 to 1000")
    }

    @Test("PostgreSQL mode with nothing listening: start-up fails with the address, no hang")
    func postgresUnreachable() async throws {
        var settings = try GatewaySettings.fromEnvironment([
            "DATABASE_URL": "postgres://authenticator@127.0.0.1:1/app?sslmode=disable", "JWT_SECRET": String(repeating: "k", count: 40),
            "DATABASE_STATEMENT_TIMEOUT_MS": "500",
        ])
        settings.store.postgres?.connectTimeout = .seconds(1)
        settings.server.logLevel = .critical
        let started = ContinuousClock.now
        do {
            let backend = try await BackendAssembly.open(settings, logger: TestGateway.logger(settings.server))
            await backend.shutdown()
            Issue.record("opened a backend on nothing")
        } catch {
            #expect("\(error)".hasPrefix("Cannot reach PostgreSQL at postgres://authenticator@127.0.0.1:1/app"))
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        // Tokens must be verifiable the way the database's policies expect: no secret, no JWKS, no start.
        let noSecret = try GatewaySettings.fromEnvironment(["DATABASE_URL": database])
        await #expect(throws: ConfigurationError.self) {
            _ = try await BackendAssembly.open(noSecret, logger: TestGateway.logger(noSecret.server))
        }
    }

    @Test("Supabase mode follows DATABASE_URL's notifications when given, cache or not, and has no feed (a warning) without it",
          .enabled(if: StoreKind.allCases.contains(.supabase), "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func supabaseModeFeed() async throws {
        let fake = try await SupabaseFake.start()
        let project = ["SUPABASE_URL": fake.url, "SUPABASE_ANON_KEY": SupabaseFake.apiKey, "SUPABASE_JWT_SECRET": SupabaseFake.jwtSecret]
        var with = try GatewaySettings.fromEnvironment(project.merging(["DATABASE_URL": database]) { a, _ in a })
        with.server.logLevel = .critical
        let followed = try await BackendAssembly.open(with, logger: TestGateway.logger(with.server))
        #expect(followed.changeFeed != nil)
        await followed.shutdown()
        var without = try GatewaySettings.fromEnvironment(project)
        without.server.logLevel = .critical
        let alone = try await BackendAssembly.open(without, logger: TestGateway.logger(without.server))
        #expect(alone.changeFeed == nil)
        await alone.shutdown()
        var uncached = try GatewaySettings.fromEnvironment(project.merging(["DATABASE_URL": database, "CACHE": "off"]) { a, _ in a })
        uncached.server.logLevel = .critical
        let noCache = try await BackendAssembly.open(uncached, logger: TestGateway.logger(uncached.server))
        // Without a cache the feed still carries ended sessions between replicas (issue 37).
        #expect(noCache.changeFeed != nil)
        await noCache.shutdown()
        await fake.stop()
    }
}
