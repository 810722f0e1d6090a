import SocialDomain

/// What the migrations' own errors mean for the domain, whichever way they travel (a PostgREST
/// error body, or a PostgreSQL error read directly): the follow functions raise with a `hint`
/// naming the case, and constraints fail with their SQLSTATE.
public enum SchemaErrors {
    /// The domain error for a SQL error's SQLSTATE and hint, or nil when neither is one of the
    /// schema's own (the caller decides: permissions, sessions, a backend fault).
    /// - Parameter detail: the error's detail; `too_many_stories` carries `retry_after=<seconds>`.
    public static func domainError(sqlState: String?, hint: String?, detail: String? = nil) -> DomainError? {
        switch hint {
        case "too_many_stories"?:
            // create_story's quota (migration 20250301002000), met by a concurrent post.
            let seconds = detail.flatMap { $0.hasPrefix("retry_after=") ? Int($0.dropFirst("retry_after=".count)) : nil }
            return .tooManyActiveStories(retryAfter: max(1, seconds ?? 60))
        case "cannot_follow_self"?: return .cannotFollowSelf
        case "profile_not_found"?: return .profileNotFound
        case "post_not_found"?: return .postNotFound
        case "authentication_required"?: return .unauthenticated(to: "follow users")
        default: break
        }
        switch sqlState {
        case "23505"?: return .handleTaken  // the unique handle_lower index
        case "23503"?: return .profileNotFound  // a follow of a profile that is gone
        default: return nil
        }
    }
}
