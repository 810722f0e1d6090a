import GraphQLEngine

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
}
