import Foundation
import Logging
import PostgresNIO
import SocialDomain
import SupabaseSchema
import Synchronization

/// The domain's ports on PostgreSQL itself: any database with `supabase/migrations` applied
/// (Supabase's direct or pooled connection, or a plain PostgreSQL with the auth stub).
///
/// Every call runs as the caller, the way PostgREST runs a request:
/// `set_config('role', 'authenticated' | 'anon')` and the verified token's claims in
/// `request.jwt.claims`, so the migrations' RLS policies and functions decide exactly as they do
/// behind PostgREST; the login user's own rights are never used for a user's request. A write is
/// one transaction with those settings local to it; a read runs its statements on a session set
/// to the caller (``read(_:viewer:forbidden:_:)``), without a transaction's round trips. Most reads
/// return the same JSON PostgREST would (`json_agg` of the same rows), decoded by
/// `SupabaseSchema`; the follow pages, the hottest read, come as plain columns
/// (``FollowPageColumns``). A loader wave is one statement (`follow_page_rows` takes every page
/// of a level at once).
///
/// ```swift
/// let store = try await PostgresStore.connect(configuration: configuration, logger: logger)
/// let byId = try await store.profiles(ids: ids, viewer: viewer)
/// await store.shutdown()
/// ```
public final class PostgresStore: Sendable {
    public let configuration: PostgresConfiguration
    let client: PostgresClient
    let logger: Logger
    private let runner: Task<Void, Never>
    private let counts = Mutex<[String: Int]>([:])
    /// Each viewer's role and claims, built once per token rather than per call.
    /// The viewer each pooled connection's session is set to, for ``read(_:viewer:forbidden:_:)``.
    private let sessions = ConnectionSessions()
    /// While set, calls fail at once: a call found no connection, so that during an outage
    /// requests do not each hold a slot for the whole deadline. A probe (``probe``) clears it as
    /// soon as the database answers again.
    private let unreachable = Mutex<Task<Void, Never>?>(nil)
    /// How often the probe asks the database while it is unreachable.
    static let probeInterval = Duration.milliseconds(250)
    /// Whether the login user may act as `service_role` (checked at start): then the store reads
    /// the graph unfiltered for the gateway's memory (``snapshots``).
    private let mayReadUnfiltered = Mutex(false)

    /// The unfiltered reads of the graph (``SocialDomain/GraphSnapshotStore``), when the login
    /// user may act as `service_role`; nil otherwise (every read is then the viewer's own).
    public var snapshots: (any GraphSnapshotStore)? { mayReadUnfiltered.withLock { $0 } ? self : nil }

    private init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    /// Opens the pool and checks, as `anon`, that the database answers and has the migrations.
    /// - Throws: ``ConfigurationError`` saying what is wrong: unreachable, login refused,
    ///   migrations missing, or a login user that may not act as `anon`/`authenticated`.
    public static func connect(configuration: PostgresConfiguration, logger: Logger) async throws -> PostgresStore {
        let store = PostgresStore(configuration: configuration, logger: logger)
        do {
            try await store.checkDatabase()
            return store
        } catch {
            await store.shutdown()
            throw error
        }
    }

    /// Closes the pool's connections.
    public func shutdown() async {
        unreachable.withLock { $0?.cancel() }
        runner.cancel()
        await runner.value
    }

    /// Port calls per operation since the last ``resetCounters()`` (one statement each, besides
    /// the transaction's own), for the same batching checks the embedded store's counters serve.
    public var callCounts: [String: Int] { counts.withLock { $0 } }

    public func resetCounters() { counts.withLock { $0 = [:] } }

    private func checkDatabase() async throws {
        let target = configuration.endpoint.redacted
        // One plain connection first: the pool retries a failed connect until the deadline and
        // keeps the reason to itself, while an operator needs it (refused, wrong password, no
        // such database).
        do {
            let probe = try await withDeadline(configuration.connectTimeout + .milliseconds(500)) { [configuration, logger] in
                try await PostgresConnection.connect(
                    configuration: try configuration.connectionConfiguration(configuration.endpoint, applicationName: "social-gateway"),
                    id: 0, logger: logger)
            }
            try? await probe.close()
        } catch {
            throw ConfigurationError("Cannot reach PostgreSQL at \(target): \(Self.describe(error))")
        }
        let found: (Bool, Bool, Bool, String, Bool)
        do {
            found = try await withDeadline(configuration.connectTimeout + configuration.statementTimeout) { [client] in
                let rows = try await client.query("""
                    select to_regprocedure('public.follow_page_rows(jsonb)') is not null
                             and to_regclass('public.profile_private') is not null,
                           pg_has_role(current_user, 'authenticated', 'MEMBER') and pg_has_role(current_user, 'anon', 'MEMBER'),
                           exists (select 1 from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
                                   where n.nspname = 'social_private' and p.proname = 'cache_notify'),
                           current_user::text,
                           case when exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role')
                                     and to_regclass('public.profiles') is not null and to_regclass('public.follows') is not null
                                     and to_regclass('public.blocks') is not null and to_regclass('public.follow_requests') is not null
                                then pg_has_role(current_user, 'service_role', 'MEMBER')
                                     and has_table_privilege('service_role', 'public.profiles', 'SELECT')
                                     and has_table_privilege('service_role', 'public.follows', 'SELECT')
                                     and has_table_privilege('service_role', 'public.blocks', 'SELECT')
                                     and has_table_privilege('service_role', 'public.follow_requests', 'SELECT')
                                else false end
                    """)
                for try await (schema, roles, notify, user, service) in rows.decode((Bool, Bool, Bool, String, Bool).self) {
                    return (schema, roles, notify, user, service)
                }
                throw MalformedRow("start-up check returned no row")
            }
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("Cannot reach PostgreSQL at \(target): \(Self.describe(error))")
        }
        guard found.0 else {
            throw ConfigurationError(
                "PostgreSQL at \(target) lacks the gateway's schema: apply supabase/migrations first")
        }
        guard found.1 else {
            throw ConfigurationError(
                "PostgreSQL user \(found.3) at \(target) may not act as anon and authenticated: "
                    + "connect as a user granted both roles (Supabase: postgres or authenticator)")
        }
        mayReadUnfiltered.withLock { $0 = found.4 }
        if !found.2 {
            logger.warning("PostgreSQL at \(target) has no cache notifications (migration 20250301001200): other writers' changes will not reach the response cache")
        }
    }

    // MARK: Running a call

    /// Runs one read-only port operation as `viewer`: its statements run as the viewer on a
    /// connection whose session is set to them (``ConnectionSessions``), each statement its own
    /// transaction, so a read costs its statements and no `BEGIN`/`set_config`/`COMMIT` round trips
    /// when the connection last served the same viewer (one more when it did not). Under READ
    /// COMMITTED a transaction would give a read of several statements nothing more: each statement
    /// takes its own snapshot either way.
    func read<T: Sendable>(
        _ operation: String, viewer: Viewer, forbidden: DomainError = .notAuthorized,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        try await read(operation, claims: ViewerClaims(viewer), forbidden: forbidden, body)
    }

    /// ``read(_:viewer:forbidden:_:)`` as the role and claims given.
    func read<T: Sendable>(
        _ operation: String, claims: ViewerClaims, forbidden: DomainError = .notAuthorized,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        try await run(operation, forbidden: forbidden) { [sessions, configuration] connection, logger, applicationName in
            let session = ViewerSession(
                claims: claims, statementTimeout: configuration.statementTimeout, applicationName: applicationName)
            try await sessions.prepare(connection, as: session, logger: logger)
            do {
                return try await body(connection, logger)
            } catch let error as PSQLError
                where error.serverInfo != nil && PostgresErrorMapper.domainError(error, forbidden: forbidden) == nil {
                // PostgresNIO keeps a prepared statement's failed preparation for the connection's
                // life: every later use answers that error. A statement cancelled while it waited
                // for a lock at `Parse` would fail on this connection for good, so the connection
                // goes (the pool opens another) when PostgreSQL refused a read for any reason but
                // a domain rule's (those come from a statement that ran, and are what a caller
                // can provoke at will: closing on them would let requests cost PostgreSQL a new
                // backend each). Other errors are rare on reads; a new connection costs a few ms.
                try? await connection.close()
                throw error
            }
        }
    }

    /// Runs one port operation that writes as `viewer` in one transaction, the role, claims and
    /// statement timeout set for that transaction only. A transaction PostgreSQL ended with a
    /// deadlock or a serialization failure runs again, up to ``transactionAttempts`` times in all,
    /// within the same deadline.
    func call<T: Sendable>(
        _ operation: String, viewer: Viewer, forbidden: DomainError = .notAuthorized,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let claims = ViewerClaims(viewer)
        return try await run(operation, forbidden: forbidden) { [configuration] connection, logger, applicationName in
            let session = ViewerSession(
                claims: claims, statementTimeout: configuration.statementTimeout, applicationName: applicationName)
            var attempt = 1
            while true {
                try await connection.query("BEGIN", logger: logger)
                do {
                    try await connection.query(session.settings(local: true), logger: logger)
                    let value = try await body(connection, logger)
                    try await connection.query("COMMIT", logger: logger)
                    return value
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    guard attempt < Self.transactionAttempts, Self.isTransient(error) else { throw error }
                    logger.notice("postgres \(operation) retried", metadata: ["error": "\(Self.describe(error))", "attempt": "\(attempt)"])
                    attempt += 1
                }
            }
        }
    }

    /// What every call shares: the count, the fast failure while the database is unreachable, the
    /// call's span in a traced request (``PostgresTracing``), a pooled connection within the
    /// statement timeout; domain errors pass, everything else is logged and becomes
    /// `BACKEND_UNAVAILABLE`. `body` gets the `application_name` the call's statements run under.
    /// - Parameter forbidden: the use case's error for a permission PostgreSQL refused (42501).
    private func run<T: Sendable>(
        _ operation: String, forbidden: DomainError,
        _ body: @escaping @Sendable (PostgresConnection, Logger, String) async throws -> T
    ) async throws -> T {
        counts.withLock { $0[operation, default: 0] += 1 }
        if unreachable.withLock({ $0 != nil }) {
            logger.debug("postgres \(operation) skipped: the database is unreachable (a probe is waiting for it)")
            throw DomainError.backendUnavailable
        }
        let span = PostgresTracing.start(operation)
        defer { span?.end() }
        let applicationName = PostgresTracing.applicationName(span)
        return try await backend(onFailure: { [logger] in
            logger.error("postgres \(operation) failed", metadata: ["error": "\(Self.describe($0))"])
        }) {
            do {
                // Some slack over the server's own timeout, so a slow statement reports as one;
                // the deadline itself covers what the server cannot: no connection to be had.
                return try await withDeadline(configuration.statementTimeout + .milliseconds(500)) { [client, logger] in
                    try await client.withConnection { connection in try await body(connection, logger, applicationName) }
                }
            } catch let error as PSQLError {
                if let domain = PostgresErrorMapper.domainError(error, forbidden: forbidden) { throw domain }
                if error.serverInfo == nil { markUnreachable() }
                throw error
            } catch let error as DeadlinePassed {
                markUnreachable()
                throw error
            }
        }
    }

    /// How many times a call's transaction runs when PostgreSQL ends it with a deadlock or a
    /// serialization failure: the transaction rolled back whole, so running it again is safe,
    /// and PostgreSQL's manual asks clients to. (The schema's own locks keep an order so that
    /// this should not happen: migration 20250301001900 fixed the last known case.)
    static let transactionAttempts = 3

    /// A deadlock (40P01) or serialization failure (40001): worth a new attempt.
    static func isTransient(_ error: any Error) -> Bool {
        guard let state = (error as? PSQLError)?.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001"
    }

    /// Calls fail at once from now until the database answers a probe (`select 1`, every
    /// ``probeInterval``): the last call found no connection (a refused or lost one, or none
    /// within the deadline).
    private func markUnreachable() {
        unreachable.withLock { probe in
            guard probe == nil else { return }
            probe = Task { [weak self] in
                while let self, !Task.isCancelled {
                    try? await Task.sleep(for: Self.probeInterval)
                    let answered = (try? await withDeadline(self.configuration.connectTimeout) { [client = self.client] in
                        try await client.query("select 1")
                    }) != nil
                    if answered {
                        self.unreachable.withLock { $0 = nil }
                        self.logger.notice("PostgreSQL answers again; calls go through")
                        return
                    }
                }
            }
        }
    }

    /// The JSON text of a prepared statement's single `text` column (``PreparedStatements``),
    /// decoded as `T`.
    static func decodeJSON<T: Decodable, Texts: AsyncSequence>(_ type: T.Type, fromTexts texts: Texts, _ operation: String) async throws -> T
    where Texts.Element == String? {
        var text: String?
        for try await value in texts { text = value }
        guard let text else { throw MalformedRow("\(operation): no result") }
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw MalformedRow("\(operation): \(error)")
        }
    }

    /// The JSON text a statement's single `text` column holds (`json_agg(...)::text`, or a
    /// function's `jsonb` result), decoded as `T`.
    static func decodeJSON<T: Decodable>(_ type: T.Type, from rows: PostgresRowSequence, _ operation: String) async throws -> T {
        var text: String?
        for try await value in rows.decode(String?.self) { text = value }
        guard let text else { throw MalformedRow("\(operation): no result") }
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw MalformedRow("\(operation): \(error)")
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A PostgreSQL error with its server fields (`String(describing:)` hides them by design).
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let info = error.serverInfo {
                return "\(info[.sqlState] ?? "?") \(info[.message] ?? "")" + (info[.detail].map { " (\($0))" } ?? "")
            }
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return "\(error)"
    }
}
