import Foundation
import Logging
import PostgresNIO
import PostgresStore
import Synchronization

/// The fake project's database: a PostgreSQL database of its own, cloned from a template that
/// holds `supabase/migrations` (and the auth stub), so that every rule the SQL owns (row-level
/// security, the functions, the triggers, the counters) runs as it does on a real project.
///
/// Requests run as PostgREST runs them: one transaction each, on a pool connected as
/// `authenticator`, after `set local role` to the caller's role and `request.jwt.claims` set to
/// the caller's claims (``run(_:binds:as:readOnly:)``). The fake's own set-up (seeding, GoTrue's
/// `auth.users`, test helpers) runs as the server's superuser (``asAdmin(_:)``), as the service
/// role or a SQL editor would.
///
/// The server is `SOCIAL_GATEWAY_TEST_POSTGRES` (a superuser URL; `scripts/test-postgres-env`
/// starts one and makes the template `social_template`), unless given.
final class FakeDatabase: Sendable {
    /// The variable naming the server (the same one the PostgreSQL store's tests use).
    static let serverVariable = "SOCIAL_GATEWAY_TEST_POSTGRES"
    /// The template every fake's database is cloned from (`scripts/test-postgres-env` makes it).
    static let template = "social_template"

    let name: String
    private let server: PostgresConfiguration.Endpoint
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger
    /// Settings every request's transaction gets (`set local`), as `alter database ... set` gives
    /// every new session: the operator's knobs such as `social_gateway.follows_per_hour`.
    private let settings = Mutex<[String: String]>([:])

    private init(name: String, server: PostgresConfiguration.Endpoint, logger: Logger) {
        self.name = name
        self.server = server
        self.logger = logger
        var configuration = PostgresClient.Configuration(
            host: server.host, port: server.port, username: "authenticator", password: nil, database: name, tls: .disable)
        configuration.options.maximumConnections = 8
        configuration.options.minimumConnections = 0
        // PostgREST on Supabase: timestamps in UTC (`...+00:00`).
        configuration.options.additionalStartupParameters = [("TimeZone", "UTC"), ("application_name", "supabase-fake")]
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    /// Creates `f_<uuid>` from the template on `serverURL` and opens the pool on it.
    /// - Throws: ``SupabaseFakeError`` when no server is named, or it cannot be reached.
    static func create(serverURL: String?, logger: Logger) async throws -> FakeDatabase {
        guard let url = serverURL ?? ProcessInfo.processInfo.environment[serverVariable].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw SupabaseFakeError(
                "SupabaseFake runs the real SQL: it needs a PostgreSQL with the \(template) template database "
                    + "(\(serverVariable); run through scripts/test or scripts/test-postgres-env)")
        }
        let server = try PostgresConfiguration.Endpoint(url: url, name: serverVariable)
        let name = "f_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try await withConnection(server, database: server.database, logger: logger) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "create database \(name) template \(template)"), logger: logger)
        }
        return FakeDatabase(name: name, server: server, logger: logger)
    }

    /// Closes the pool and drops the database (its sessions ended by force).
    func drop() async {
        runner.cancel()
        await runner.value
        _ = try? await Self.withConnection(server, database: server.database, logger: logger) { [name, logger] connection in
            try await connection.query(PostgresQuery(unsafeSQL: "drop database if exists \(name) with (force)"), logger: logger)
        }
    }

    /// Runs `body` on a new superuser session to this database (closed afterwards).
    @discardableResult
    func asAdmin<T: Sendable>(_ body: @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        try await Self.withConnection(server, database: name, logger: logger) { [logger] connection in
            try await body(connection, logger)
        }
    }

    /// The superuser's answer to `sql`: its first row's first column as text (nil when none).
    func adminText(_ sql: String, binds: PostgresBindings = PostgresBindings()) async throws -> String? {
        try await asAdmin { connection, logger in
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).decode(String?.self) {
                return value
            }
            return nil
        }
    }

    /// Sets `name` to `value` for every request from now on, as `alter database <db> set` would
    /// for new sessions (the pool's open sessions included).
    func set(_ name: String, to value: String) {
        settings.withLock { $0[name] = value }
    }

    /// Runs one request's statement as PostgREST does: a transaction (read-only when asked, as
    /// for GET and for STABLE functions), the caller's role and claims set for it alone, then
    /// the statement, whose one text column (a JSON document) is the answer; nil when it
    /// returned NULL or no row.
    /// - Throws: `PSQLError` as PostgreSQL raised it (``PostgRESTError`` turns it into
    ///   PostgREST's answer), or a connection failure.
    func run(_ sql: String, binds: PostgresBindings = PostgresBindings(), as caller: SupabaseFake.Caller, readOnly: Bool) async throws -> String? {
        try await client.withConnection { [logger] connection in
            try await connection.query(PostgresQuery(unsafeSQL: readOnly ? "begin read only" : "begin"), logger: logger)
            do {
                var settings = PostgresBindings()
                settings.append(caller.role)
                settings.append(caller.claims)
                try await connection.query(PostgresQuery(unsafeSQL: """
                    select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
                           set_config('search_path', 'public, extensions', true)
                    """, binds: settings), logger: logger)
                for (name, value) in self.settings.withLock({ $0 }) {
                    var binds = PostgresBindings()
                    binds.append(name)
                    binds.append(value)
                    try await connection.query(PostgresQuery(unsafeSQL: "select set_config($1, $2, true)", binds: binds), logger: logger)
                }
                var answer: String?
                for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                    .decode(String?.self) {
                    answer = value
                }
                try await connection.query("commit", logger: logger)
                return answer
            } catch {
                _ = try? await connection.query("rollback", logger: logger)
                throw error
            }
        }
    }

    private static func withConnection<T: Sendable>(
        _ server: PostgresConfiguration.Endpoint, database: String, logger: Logger,
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        var configuration = PostgresConnection.Configuration(
            host: server.host, port: server.port, username: server.username, password: server.password, database: database,
            tls: .disable)
        configuration.options.additionalStartupParameters = [("TimeZone", "UTC"), ("application_name", "supabase-fake-admin")]
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let value = try await body(connection)
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// The fake cannot start (no PostgreSQL named), or a helper met what it cannot do.
public struct SupabaseFakeError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
