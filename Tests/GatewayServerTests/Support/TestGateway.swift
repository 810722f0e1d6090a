import EmbeddedStore
import Foundation
import GatewayAssembly
import GatewayServer
import GatewayTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import SocialFixtures
import SocialGateway
import SupabaseFake

/// A real gateway application over one ``StoreKind`` holding the demo data, plus what tests
/// need around it: the store's counters or the fake's recorded requests, and tokens for the
/// demo users.
///
/// Embedded: a fresh store in a temporary folder, tokens signed with its dev secret. Supabase:
/// a ``SupabaseFake`` seeded with the same demo data, the server configured from the same
/// environment variables an operator sets (`SUPABASE_URL`, `SUPABASE_ANON_KEY`,
/// `SUPABASE_JWT_SECRET`), and tokens signed with the fake's secret, as a real project's are.
struct TestGateway {
    let configuration: ServerConfiguration
    let backend: GatewayBackend
    let issuer: DevTokenIssuer
    /// The embedded store behind an embedded-mode gateway.
    let embedded: EmbeddedStore?
    /// The fake project behind a Supabase-mode gateway.
    let fake: SupabaseFake?
    /// The database behind a PostgreSQL-mode gateway.
    let database: PostgresTestDatabase?
    /// Routes the composition root adds (the load-test hooks).
    let extraRoutes: [GatewayRoute]
    /// The data folder ``make(_:_:)`` created, removed with the last copy of this gateway.
    private let createdDataFolder: CreatedFolder?

    init(
        configuration: ServerConfiguration, backend: GatewayBackend, issuer: DevTokenIssuer, embedded: EmbeddedStore? = nil,
        fake: SupabaseFake? = nil, database: PostgresTestDatabase? = nil, extraRoutes: [GatewayRoute] = [],
        createdDataFolder: CreatedFolder? = nil
    ) {
        self.createdDataFolder = createdDataFolder
        self.database = database
        self.configuration = configuration
        self.backend = backend
        self.issuer = issuer
        self.embedded = embedded
        self.fake = fake
        self.extraRoutes = extraRoutes
    }

    var store: EmbeddedStore { embedded! }
    var kind: StoreKind { fake != nil ? .supabase : database != nil ? .postgres : .embedded }

    /// The JWT secret a PostgreSQL-mode test gateway verifies tokens with.
    static let postgresJWTSecret = "postgres-mode-test-secret-0123456789abcdef"

    /// - Parameters:
    ///   - fixture: the rows the store holds instead of the demo data (``SocialFixture``).
    ///   - configure: changes to the default test settings (port 0, temp data dir).
    static func make(
        _ kind: StoreKind = .embedded, fixture: SocialFixture? = nil, _ configure: (inout GatewaySettings) -> Void = { _ in }
    ) async throws -> TestGateway {
        var settings = GatewaySettings()
        var fake: SupabaseFake?
        if kind == .supabase {
            let project = try await SupabaseFake.start()
            do {
                if let fixture {
                    try await project.add(profiles: fixture.profiles, follows: fixture.follows)
                    try await project.add(posts: fixture.posts, likes: fixture.likes, comments: fixture.comments)
                } else {
                    try await project.seedDemoData()
                }
            } catch {
                await project.stop()
                throw error
            }
            settings = try GatewaySettings.fromEnvironment([
                "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": SupabaseFake.apiKey,
                "SUPABASE_JWT_SECRET": SupabaseFake.jwtSecret,
            ])
            // Retry after milliseconds; the request timeout stays the default (see SupabaseFake.configuration()).
            settings.store.supabase?.retryBaseDelay = .milliseconds(10)
            fake = project
        }
        var database: PostgresTestDatabase?
        if kind == .postgres {
            let rows = fixture ?? DemoData.fixture
            let created = try await PostgresTestDatabase.create(
                profiles: rows.profiles, follows: rows.follows, ownerDetails: rows.ownerDetails,
                posts: rows.posts, likes: rows.likes, comments: rows.comments)
            database = created
            settings = try GatewaySettings.fromEnvironment([
                "DATABASE_URL": created.storeURL, "JWT_SECRET": postgresJWTSecret, "DATABASE_STATEMENT_TIMEOUT_MS": "2000",
            ])
        }
        settings.server.host = "127.0.0.1"
        settings.server.port = 0
        let createdFolder = CreatedFolder(FileManager.default.temporaryDirectory
            .appendingPathComponent("gateway-server-tests-\(UUID().uuidString.lowercased())", isDirectory: true))
        settings.server.dataDirectory = createdFolder.url
        settings.server.publicURL = "http://gateway.test"
        settings.server.logLevel = .warning
        if fixture != nil { settings.store.seedDemoData = false }
        configure(&settings)
        let logger = Self.logger(settings.server)
        let backend: GatewayBackend
        var embedded: EmbeddedStore?
        do {
            if settings.store.isEmbedded {
                (backend, embedded) = try await BackendAssembly.openEmbeddedBackend(settings, logger: logger)
                if let fixture { try await embedded?.insert(fixture) }
            } else {
                backend = try await BackendAssembly.open(settings, logger: logger)
            }
        } catch {
            await fake?.stop()
            await database?.drop()
            throw error
        }
        let issuer = await DevTokenIssuer(secret: backend.jwtSecret!, audience: settings.server.jwtAudience)
        fake?.clearRequests()   // the start-up check and the JWKS fetch
        return TestGateway(
            configuration: settings.server, backend: backend, issuer: issuer, embedded: embedded, fake: fake,
            database: database, extraRoutes: settings.loadTest.routes,
            createdDataFolder: settings.server.dataDirectory == createdFolder.url ? createdFolder : nil)
    }

    /// Runs `body` with a fresh gateway of `kind`, then releases the backend and stops the fake.
    static func run(
        _ kind: StoreKind, fixture: SocialFixture? = nil, _ configure: (inout GatewaySettings) -> Void = { _ in },
        _ body: (TestGateway) async throws -> Void
    ) async throws {
        let gateway = try await make(kind, fixture: fixture, configure)
        do {
            try await body(gateway)
        } catch {
            await gateway.shutdown()
            throw error
        }
        await gateway.shutdown()
    }

    /// Releases the store's connections, stops the fake and drops the PostgreSQL database.
    func shutdown() async {
        await backend.shutdown()
        await fake?.stop()
        await database?.drop()
    }

    static func logger(_ configuration: ServerConfiguration) -> Logger {
        var logger = Logger(label: "gateway-server-tests")
        logger.logLevel = configuration.logLevel
        return logger
    }

    /// Runs `body` against the app: `.router` (in-process) or `.live` (a real socket on 127.0.0.1).
    /// Services the server starts beside it (the cache's change feed) run for the duration.
    func test<Value>(_ setup: TestingSetup = .router, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let background = BackgroundServices()
        let app = try await buildApplication(
            configuration: configuration.withSQLiteResponseCache, backend: backend, logger: Self.logger(configuration), extraRoutes: extraRoutes,
            background: background)
        let services = Task {
            await withTaskGroup(of: Void.self) { group in
                for service in background.all { group.addTask { try? await service.run() } }
            }
        }
        defer { services.cancel() }
        return try await app.test(setup, body)
    }

    /// A bearer header value for a demo user.
    func bearer(_ handle: String) async throws -> String {
        "Bearer " + (try await issuer.token(for: DemoData.id(forHandle: handle)!))
    }
}

/// JSON request helpers for the GraphQL endpoint.
enum GraphQLBody {
    /// `{"query":...,"variables":...}` encoded with Foundation (tests only compare decoded values).
    static func json(_ query: String, variables: [String: Any] = [:], operationName: String? = nil) -> ByteBuffer {
        var object: [String: Any] = ["query": query, "variables": variables]
        if let operationName { object["operationName"] = operationName }
        return ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    static func batch(_ queries: [(String, [String: Any])]) -> ByteBuffer {
        let list = queries.map { ["query": $0.0, "variables": $0.1] as [String: Any] }
        return ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]))
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body parsed with Foundation (for reading values; exact bytes are compared as text).
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) }

    /// `errors[0].extensions.code` of a GraphQL error body.
    var firstErrorCode: String? {
        guard let object = json as? [String: Any], let errors = object["errors"] as? [[String: Any]],
              let extensions = errors.first?["extensions"] as? [String: Any] else { return nil }
        return extensions["code"] as? String
    }

    /// `errors[0].message`.
    var firstErrorMessage: String? {
        guard let object = json as? [String: Any], let errors = object["errors"] as? [[String: Any]] else { return nil }
        return errors.first?["message"] as? String
    }
}

extension HTTPFields {
    /// The headers of a JSON GraphQL POST, optionally with a bearer token.
    static func graphQL(accept: String = "application/graphql-response+json", authorization: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json", .accept: accept]
        if let authorization { fields[.authorization] = authorization }
        return fields
    }
}

/// A folder a test made, removed when the last gateway holding it goes: many tests never call
/// ``TestGateway/shutdown()`` on an embedded gateway, and each would leave its data folder (the
/// database, the cache file, the dev secret) in the temporary directory.
final class CreatedFolder: Sendable {
    let url: URL

    init(_ url: URL) { self.url = url }

    deinit { try? FileManager.default.removeItem(at: url) }
}
