import Foundation
import Logging
import PostgresNIO
import PostgresStore
import SocialDomain

/// A throwaway database on the test PostgreSQL server, copied from the `social_template`
/// database (`supabase/tests/auth_stub.sql` and every migration applied) that
/// `scripts/test-postgres-env` prepares, and seeded with the same data the other stores get.
///
/// The server is named by `SOCIAL_GATEWAY_TEST_POSTGRES` (a superuser URL); without it the
/// PostgreSQL kind is not among ``StoreKind/allCases``. The store connects as `authenticator`,
/// the login role that may only become `anon` or `authenticated`, as PostgREST does.
public struct PostgresTestDatabase: Sendable {
    /// The variable naming the test server.
    public static let variable = "SOCIAL_GATEWAY_TEST_POSTGRES"
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    public let name: String
    let admin: PostgresConfiguration.Endpoint

    /// The database as the store's login user sees it.
    public var storeURL: String { "postgres://authenticator@\(admin.host):\(admin.port)/\(name)?sslmode=disable" }
    /// The database as the superuser (to write "from outside the gateway", as psql would).
    public var adminURL: String { "postgres://\(admin.username)@\(admin.host):\(admin.port)/\(name)?sslmode=disable" }

    /// Creates the database and fills it.
    public static func create(
        profiles: [Profile], follows: [Follow], ownerDetails: [UUID: ProfileOwnerDetails], posts: [Post] = [],
        likes: [(post: UUID, profile: UUID)] = [], comments: [SocialDomain.Comment] = []
    ) async throws -> PostgresTestDatabase {
        guard let url = serverURL else {
            throw ConfigurationError("\(variable) is not set: run the tests through scripts/test (or scripts/test-postgres-env)")
        }
        let admin = try PostgresConfiguration.Endpoint(url: url, name: variable)
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withConnection(admin, database: admin.database) { connection, logger in
            try await connection.query("create database \(unescaped: name) template social_template", logger: logger)
        }
        let database = PostgresTestDatabase(name: name, admin: admin)
        try await database.seed(profiles: profiles, follows: follows, ownerDetails: ownerDetails)
        if !posts.isEmpty { try await database.seed(posts: posts, likes: likes, comments: comments) }
        return database
    }

    /// Drops the database (its connections are closed by force).
    public func drop() async {
        _ = try? await Self.withConnection(admin, database: admin.database) { connection, logger in
            try await connection.query("drop database if exists \(unescaped: name) with (force)", logger: logger)
        }
    }

    /// Runs statements, one after the other on one session, as the superuser on this database:
    /// a write from outside the gateway (psql's). One statement per string.
    public func execute(_ statements: String...) async throws {
        try await execute(statements: statements)
    }

    /// ``execute(_:)`` with the statements in an array.
    public func execute(statements: [String]) async throws {
        try await Self.withConnection(admin, database: name) { connection, logger in
            for sql in statements { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
        }
    }

    /// The first column of the first row of `sql` (a `bigint`), read as the superuser: what the
    /// database holds regardless of row-level security, e.g. a row's time in microseconds.
    public func int64(_ sql: String) async throws -> Int64? {
        try await Self.withConnection(admin, database: name) { connection, logger in
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int64?.self) {
                return value
            }
            return nil
        }
    }

    /// The first column of the first row of `sql` as text, read as the superuser: e.g. the live
    /// definition of a function (`pg_get_functiondef`), whatever migration wrote it last.
    public func text(_ sql: String) async throws -> String? {
        try await Self.withConnection(admin, database: name) { connection, logger in
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String?.self) {
                return value
            }
            return nil
        }
    }

    /// Takes the database down for the store (`allow_connections` off, its sessions ended) or
    /// brings it back: what a store sees when its server stops and starts.
    public func setAcceptingConnections(_ accepting: Bool) async throws {
        try await Self.withConnection(admin, database: admin.database) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "alter database \(name) allow_connections \(accepting)"), logger: logger)
            if !accepting {
                try await connection.query(
                    "select pg_terminate_backend(pid) from pg_stat_activity where datname = \(name) and pid <> pg_backend_pid()",
                    logger: logger)
            }
        }
    }

    /// The rows, as every store seeds them (``PostgresSeed``), as the superuser.
    private func seed(profiles: [Profile], follows: [Follow], ownerDetails: [UUID: ProfileOwnerDetails]) async throws {
        try await Self.withConnection(admin, database: name) { connection, logger in
            try await PostgresSeed.insert(profiles: profiles, follows: follows, ownerDetails: ownerDetails, on: connection, logger: logger)
        }
    }

    private func seed(posts: [Post], likes: [(post: UUID, profile: UUID)], comments: [SocialDomain.Comment]) async throws {
        try await Self.withConnection(admin, database: name) { connection, logger in
            try await PostgresSeed.insert(posts: posts, likes: likes, comments: comments, on: connection, logger: logger)
        }
    }

    @discardableResult
    static func withConnection<T: Sendable>(
        _ admin: PostgresConfiguration.Endpoint, database: String,
        _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "postgres-test-database")
        let configuration = PostgresConnection.Configuration(
            host: admin.host, port: admin.port, username: admin.username, password: admin.password, database: database,
            tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let value = try await body(connection, logger)
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
