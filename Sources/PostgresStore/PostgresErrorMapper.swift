import PostgresNIO
import SocialDomain
import SupabaseSchema

/// What a PostgreSQL error means for the domain: the schema's own errors (``SchemaErrors``),
/// and a refused permission; everything else (a timeout, a lost connection, a fault) is left
/// to become `BACKEND_UNAVAILABLE`.
enum PostgresErrorMapper {
    static func domainError(_ error: PSQLError, forbidden: DomainError) -> DomainError? {
        guard let info = error.serverInfo else { return nil }
        let sqlState = info[.sqlState]
        if let known = SchemaErrors.domainError(sqlState: sqlState, hint: info[.hint], detail: info[.detail]) { return known }
        switch sqlState {
        case "42501"?: return forbidden  // insufficient_privilege: a grant or a policy said no
        default: return nil
        }
    }
}
