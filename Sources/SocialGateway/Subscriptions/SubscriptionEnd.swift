import GraphQLEngine
import SocialDomain

/// Why a live subscription ended, for its transport to say: `complete`, or an error first.
public enum SubscriptionEnd: Sendable {
    /// The server completed it (a graceful shutdown).
    case completed
    /// It failed: the errors to send, each with `extensions.code` (`SLOW_CONSUMER`,
    /// `BACKEND_UNAVAILABLE`).
    case failed([GraphQLError])
    /// The client ended it (a `complete` message, a closed connection): nothing is sent.
    case cancelled

    /// The subscriber did not take its events as fast as they came: its queue filled.
    static func slowConsumer(limit: Int) -> SubscriptionEnd {
        .failed([GraphQLError(
            "This subscription fell \(limit) events behind and was ended; subscribe again to resume.",
            extensions: ["code": "SLOW_CONSUMER"])])
    }

    /// The backend's change feed was lost: events may be missed until it is back.
    static let feedLost = SubscriptionEnd.failed([GraphQLError(
        "Live updates were interrupted (the change feed was lost); subscribe again in a moment.",
        extensions: ["code": "BACKEND_UNAVAILABLE"])])

    /// The session of the subscriber's token ended (a sign-out, a password change or reset, on
    /// this replica or another): what HTTP answers that token, `UNAUTHENTICATED`.
    static let sessionEnded = SubscriptionEnd.failed([GraphQLError(
        DomainError.sessionExpired.message, extensions: ["code": "UNAUTHENTICATED"])])

    /// The subscriber's read budget is spent: each delivered event costs its selection's estimate.
    static func rateLimited(cost: Int, retryAfter: Int) -> SubscriptionEnd {
        .failed([GraphQLError(
            "Too many requests: this viewer's budget for reads is spent (each event of this subscription costs \(cost)); "
                + "subscribe again in \(retryAfter) seconds.",
            extensions: ["code": "TOO_MANY_REQUESTS", "retryAfter": .int(retryAfter), "cost": .int(cost)])])
    }
}
