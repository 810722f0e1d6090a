import Foundation
import SocialDomain
import SupabaseFake
import Testing
@testable import SupabaseStore

@Suite("SupabaseConfiguration and start-up")
struct ConfigurationTests {
    @Test("no SUPABASE_URL means no Supabase store (the embedded one is used)")
    func unsetMeansEmbedded() throws {
        #expect(try SupabaseConfiguration.fromEnvironment([:]) == nil)
    }

    @Test("the environment gives URL, key (anon or publishable), secret and the default JWKS URL")
    func readsEnvironment() throws {
        let config = try #require(try SupabaseConfiguration.fromEnvironment([
            "SUPABASE_URL": "https://abcd.supabase.co/", "SUPABASE_PUBLISHABLE_KEY": "sb_publishable_x",
            "SUPABASE_JWT_SECRET": "s3cret",
        ]))
        #expect(config.url.absoluteString == "https://abcd.supabase.co")
        #expect(config.apiKey == "sb_publishable_x" && !config.apiKeyIsJWT)
        #expect(config.jwtSecret == "s3cret")
        #expect(config.jwksURL.absoluteString == "https://abcd.supabase.co/auth/v1/.well-known/jwks.json")
    }

    @Test("a malformed SUPABASE_URL or a missing key fails with a message naming the problem")
    func rejectsBadConfiguration() {
        #expect(throws: ConfigurationError(
            "SUPABASE_URL is not a valid project URL (expected https://<project>.supabase.co): abcd.supabase.co")) {
            try SupabaseConfiguration.fromEnvironment(["SUPABASE_URL": "abcd.supabase.co", "SUPABASE_ANON_KEY": "k"])
        }
        #expect(throws: ConfigurationError("SUPABASE_URL is set but SUPABASE_ANON_KEY (or SUPABASE_PUBLISHABLE_KEY) is not")) {
            try SupabaseConfiguration.fromEnvironment(["SUPABASE_URL": "https://abcd.supabase.co"])
        }
        #expect(throws: ConfigurationError("SUPABASE_MAX_ROWS must be a positive integer (the project's API Max Rows), got \"0\"")) {
            try SupabaseConfiguration.fromEnvironment(["SUPABASE_URL": "https://abcd.supabase.co", "SUPABASE_ANON_KEY": "k", "SUPABASE_MAX_ROWS": "0"])
        }
    }

    @Test("SUPABASE_MAX_ROWS follows a project whose Max Rows is not 1000: follow_pages requests stay under it")
    func maxRowsFromEnvironment() async throws {
        #expect(try SupabaseConfiguration.fromEnvironment(["SUPABASE_URL": "https://abcd.supabase.co", "SUPABASE_ANON_KEY": "k"])?.maxRows == 1000)
        let config = try #require(try SupabaseConfiguration.fromEnvironment([
            "SUPABASE_URL": "https://abcd.supabase.co", "SUPABASE_ANON_KEY": "k", "SUPABASE_MAX_ROWS": "25",
        ]))
        #expect(config.maxRows == 25)
        let pages = (0..<5).map { _ in FollowPageRequest(list: FollowList(.followers, of: UUID()), page: PageRequest(limit: 10)) }
        #expect(SupabaseStore.rowBudgetChunks(pages, maxRows: config.maxRows).map(\.count) == [2, 2, 1])
    }

    @Test("connect checks the project with one anonymous read of profiles",
          .enabled(if: StoreHarness.available, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func connectChecksReachability() async throws {
        let fake = try await SupabaseFake.start()
        let store = try await SupabaseStore.connect(configuration: try fake.configuration())
        #expect(fake.requests.map { "\($0.method) \($0.path)?\($0.query)" } == ["GET /rest/v1/profiles?select=id&limit=1"])
        try await store.shutdown()
        await fake.stop()
    }

    @Test("connect to an unreachable URL fails with a message naming the URL",
          .enabled(if: StoreHarness.available, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func connectUnreachable() async throws {
        let fake = try await SupabaseFake.start()
        var config = try fake.configuration()
        config.maxReadRetries = 0
        await fake.stop()
        do {
            _ = try await SupabaseStore.connect(configuration: config)
            Issue.record("connect succeeded against a stopped server")
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("Cannot reach Supabase at \(fake.url): "))
        }
    }

    @Test("connect with a wrong key fails saying the key was rejected",
          .enabled(if: StoreHarness.available, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func connectWrongKey() async throws {
        let fake = try await SupabaseFake.start()
        var config = try fake.configuration()
        config.apiKey = "sb_publishable_wrong"
        do {
            _ = try await SupabaseStore.connect(configuration: config)
            Issue.record("connect accepted a wrong key")
        } catch let error as ConfigurationError {
            #expect(error.message == "Supabase at \(fake.url) rejected SUPABASE_ANON_KEY (HTTP 401): Invalid API key")
        }
        await fake.stop()
    }
}
