import SocialDomain

/// What the migrations' own errors mean for the domain, whichever way they travel (a PostgREST
/// error body, or a PostgreSQL error read directly): the functions raise a condition, named by
/// the `hint` (and since migration 20250301002100 by the message too), with its argument in the
/// `detail`; constraints fail with their SQLSTATE. The words are the domain's (``DomainError``):
/// nothing here, nor in the SQL, spells a message a client reads.
public enum SchemaErrors {
    /// The domain error for a SQL error's SQLSTATE, hint and detail, or nil when none is one of
    /// the schema's own (the caller decides: permissions, sessions, a backend fault).
    /// - Parameter detail: `too_many_stories`, `follow_request_declined`, `follows_per_hour` and
    ///   `follows_per_day` carry `retry_after=<seconds>`,
    ///   `authentication_required` `action=<SignedInAction raw value>`.
    public static func domainError(sqlState: String?, hint: String?, detail: String? = nil) -> DomainError? {
        switch hint {
        case "too_many_stories"?:
            // create_story's quota (migration 20250301002000), met by a concurrent post.
            let seconds = argument("retry_after", in: detail).flatMap { Int($0) }
            return .tooManyActiveStories(retryAfter: max(1, seconds ?? 60))
        case "follow_request_declined"?:
            // asking again within FollowRequestRules.askAgainAfterDecline (migration 20250301002300)
            let seconds = argument("retry_after", in: detail).flatMap { Int($0) }
            return .askAgainLater(retryAfterSeconds: max(1, seconds ?? 60))
        case "follows_per_hour"?, "follows_per_day"?:
            // The database's own follow limits (migration 20250301003000), met by a caller the
            // gateway's in-process count let through (another replica's follows, or a direct
            // PostgREST caller): the same answer as the gateway's FollowLimits.
            let seconds = argument("retry_after", in: detail).flatMap { Int($0) }
            return .tooManyAttempts(retryAfter: max(1, seconds ?? 60))
        case "follow_request_not_found"?: return .followRequestNotFound
        case "cannot_block_self"?: return .cannotBlockSelf
        case "cannot_follow_self"?: return .cannotFollowSelf
        case "profile_not_found"?: return .profileNotFound
        case "post_not_found"?: return .postNotFound
        case "authentication_required"?:
            // Functions of migrations before 002100 name no action; only the follow functions
            // could then be reached signed out (the use cases refuse the others first).
            let action = argument("action", in: detail).flatMap(SignedInAction.init(rawValue:)) ?? .followUsers
            return .unauthenticated(to: action)
        default: break
        }
        switch sqlState {
        case "23505"?: return .handleTaken  // the unique handle_lower index
        case "23503"?: return .profileNotFound  // a follow of a profile that is gone
        default: return nil
        }
    }

    /// The value of `key=<value>` when that is the whole detail.
    static func argument(_ key: String, in detail: String?) -> String? {
        guard let detail, detail.hasPrefix(key + "=") else { return nil }
        return String(detail.dropFirst(key.count + 1))
    }
}
