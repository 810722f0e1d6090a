import Foundation
import PostgresNIO
import SocialDomain

/// Where the PostgreSQL store connects and how: from `DATABASE_URL`
/// (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`),
/// `DATABASE_POOL_SIZE` (default 10), `DATABASE_STATEMENT_TIMEOUT_MS` (default 5000) and
/// `DATABASE_LISTEN_URL` (the change feed's connection, default `DATABASE_URL`: a
/// transaction-mode pooler such as Supabase's port 6543 cannot LISTEN, so give the direct or
/// session-mode URL there).
///
/// The user must be able to `SET ROLE authenticated` and `anon` (on Supabase: `postgres`, or
/// `authenticator`); each request runs as one of those roles, never as the login user.
public struct PostgresConfiguration: Sendable {
    /// One server address and login.
    public struct Endpoint: Sendable, Equatable {
        public enum TLSMode: String, Sendable { case disable, prefer, require }
        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String
        public var tls: TLSMode

        /// The URL without its password, for logs and errors.
        public var redacted: String { "postgres://\(username)@\(host):\(port)/\(database)" }

        /// - Throws: ``ConfigurationError`` for anything but a `postgres://` or
        ///   `postgresql://` URL with a user, a host and a database.
        public init(url text: String, name: String = "DATABASE_URL") throws {
            guard let components = URLComponents(string: text), let scheme = components.scheme,
                  ["postgres", "postgresql"].contains(scheme.lowercased())
            else { throw ConfigurationError("\(name) must be a postgres:// URL") }
            guard let host = components.host, !host.isEmpty else { throw ConfigurationError("\(name) names no host") }
            guard let user = components.user, !user.isEmpty else { throw ConfigurationError("\(name) names no user") }
            let database = String(components.path.drop(while: { $0 == "/" }))
            guard !database.isEmpty, !database.contains("/") else {
                throw ConfigurationError("\(name) names no database (postgres://user@host:5432/DATABASE)")
            }
            var tls = TLSMode.prefer
            for item in components.queryItems ?? [] where item.name == "sslmode" {
                switch item.value ?? "" {
                case "disable": tls = .disable
                case "allow", "prefer": tls = .prefer
                case "require", "verify-ca", "verify-full": tls = .require
                default: throw ConfigurationError("\(name): unknown sslmode \(item.value ?? "")")
                }
            }
            if let port = components.port, !(1...65_535).contains(port) {
                throw ConfigurationError("\(name): port \(port) is out of range")
            }
            self.host = host
            self.port = components.port ?? 5432
            self.username = user.removingPercentEncoding ?? user
            self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
            self.database = database.removingPercentEncoding ?? database
            self.tls = tls
        }

        var clientTLS: PostgresClient.Configuration.TLS {
            switch tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        }
    }

    /// The pool's server.
    public var endpoint: Endpoint
    /// The change feed's server (LISTEN needs a session of its own).
    public var listenEndpoint: Endpoint
    /// Connections the pool may open (`DATABASE_POOL_SIZE`).
    public var poolSize = 10
    /// The longest a statement may run (`DATABASE_STATEMENT_TIMEOUT_MS`): PostgreSQL cancels it,
    /// and the store answers `BACKEND_UNAVAILABLE`. A call also gives up when no connection
    /// can be had within it, so a database that is down never makes a request hang longer.
    public var statementTimeout: Duration = .milliseconds(5_000)
    /// How long to wait for a new connection.
    public var connectTimeout: Duration = .seconds(5)

    public init(endpoint: Endpoint, listenEndpoint: Endpoint? = nil) {
        self.endpoint = endpoint
        self.listenEndpoint = listenEndpoint ?? endpoint
    }

    /// The configuration `DATABASE_URL` and its companions describe, or nil without `DATABASE_URL`.
    /// - Throws: ``ConfigurationError`` for a malformed value.
    public static func fromEnvironment(_ environment: [String: String]) throws -> PostgresConfiguration? {
        guard let url = environment["DATABASE_URL"], !url.isEmpty else { return nil }
        var configuration = PostgresConfiguration(endpoint: try Endpoint(url: url))
        if let listen = environment["DATABASE_LISTEN_URL"], !listen.isEmpty {
            configuration.listenEndpoint = try Endpoint(url: listen, name: "DATABASE_LISTEN_URL")
        }
        if let text = environment["DATABASE_POOL_SIZE"] {
            guard let size = Int(text), (1...1_000).contains(size) else {
                throw ConfigurationError("DATABASE_POOL_SIZE must be a whole number from 1 to 1000")
            }
            configuration.poolSize = size
        }
        if let text = environment["DATABASE_STATEMENT_TIMEOUT_MS"] {
            guard let ms = Int(text), (1...600_000).contains(ms) else {
                throw ConfigurationError("DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 1 to 600000")
            }
            configuration.statementTimeout = .milliseconds(ms)
        }
        return configuration
    }

    var clientConfiguration: PostgresClient.Configuration {
        var client = PostgresClient.Configuration(
            host: endpoint.host, port: endpoint.port, username: endpoint.username, password: endpoint.password,
            database: endpoint.database, tls: endpoint.clientTLS)
        client.options.maximumConnections = poolSize
        client.options.minimumConnections = 0
        client.options.connectTimeout = connectTimeout
        // Timestamps come back as `...+00:00`, the form the shared rows parse.
        client.options.additionalStartupParameters = [("TimeZone", "UTC"), ("application_name", "social-gateway")]
        return client
    }

    func listenConfiguration() throws -> PostgresConnection.Configuration {
        try connectionConfiguration(listenEndpoint, applicationName: "social-gateway-listener")
    }

    /// A single connection to `endpoint` (the change feed's, and the start-up check's).
    func connectionConfiguration(_ endpoint: Endpoint, applicationName: String) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS = switch endpoint.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var connection = PostgresConnection.Configuration(
            host: endpoint.host, port: endpoint.port, username: endpoint.username,
            password: endpoint.password, database: endpoint.database, tls: tls)
        connection.options.connectTimeout = .milliseconds(connectTimeout.components.seconds * 1000)
        connection.options.additionalStartupParameters = [("application_name", applicationName)]
        return connection
    }
}
