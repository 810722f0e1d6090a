import Logging
import PostgresNIO
import Synchronization

/// What a call runs as: the role and claims of ``ViewerClaims``, the statement timeout, and the
/// `application_name` (the call's `traceparent` in a traced request: ``PostgresTracing``).
struct ViewerSession: Sendable, Equatable {
    var claims: ViewerClaims
    var timeoutMilliseconds: Int64
    var applicationName: String

    init(claims: ViewerClaims, statementTimeout: Duration, applicationName: String = PostgresTracing.defaultApplicationName) {
        self.claims = claims
        self.applicationName = applicationName
        let (seconds, attoseconds) = statementTimeout.components
        timeoutMilliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The one statement that sets all four: for the current transaction only (`local`, a
    /// write's), or for the session (a read's). A traced read sets its session's
    /// `application_name` to its own `traceparent`, so the next untraced read on that connection
    /// sets the session again: tracing costs a statement per traced call, nothing otherwise.
    func settings(local: Bool) -> PostgresQuery {
        """
        select set_config('role', \(claims.role), \(local)),
               set_config('request.jwt.claims', \(claims.json), \(local)),
               set_config('statement_timeout', \("\(timeoutMilliseconds)"), \(local)),
               set_config('application_name', \(applicationName), \(local))
        """
    }
}

/// The ``ViewerSession`` each pooled connection's session was last set to, so that a read on a
/// connection that last served the same viewer sets nothing, and one that served another sets
/// the session in one statement before its own.
///
/// Why this is safe: an entry is written only after PostgreSQL confirmed the settings on that
/// connection, and removed before they are changed, so a failure in between leaves no entry and
/// the next read sets them again. Nothing else changes a session's role or claims: writes set
/// theirs for their transaction only (`set_config(..., true)`, undone at its end), and no
/// function of the migrations sets either for a session. Connection ids come from the pool's own
/// counter and are never reused by it, so a new connection (a session with nothing set) never
/// finds another's entry.
final class ConnectionSessions: Sendable {
    private let current = Mutex<[Int: ViewerSession]>([:])
    /// Entries kept before all are dropped (connections come and go over a process's life; the
    /// next read on each sets its session again).
    static let capacity = 1024

    /// Sets `connection`'s session to `session` unless it is set so already.
    func prepare(_ connection: PostgresConnection, as session: ViewerSession, logger: Logger) async throws {
        let id = connection.id
        let isSet = current.withLock { sessions -> Bool in
            if sessions[id] == session { return true }
            sessions[id] = nil
            return false
        }
        if isSet { return }
        try await connection.query(session.settings(local: false), logger: logger)
        current.withLock { sessions in
            if sessions.count >= Self.capacity { sessions.removeAll(keepingCapacity: true) }
            sessions[id] = session
        }
    }
}
