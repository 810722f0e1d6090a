/// The bounds on live subscriptions, each with a clear end or refusal when reached
/// (docs/SERVER.md, "Subscriptions").
public struct SubscriptionLimits: Sendable, Hashable {
    /// Events one subscription may have waiting; one more ends it with `SLOW_CONSUMER`.
    public var queuedEventsPerSubscription: Int
    /// Subscriptions one WebSocket connection may run at once.
    public var subscriptionsPerConnection: Int
    /// Streaming connections (WebSocket, server-sent events, multipart) one viewer may hold.
    public var connectionsPerViewer: Int
    /// Seconds a WebSocket may stay open without `connection_init` (closed with 4408).
    public var handshakeTimeoutSeconds: Int
    /// Seconds a WebSocket may stay open with no subscription and no message (closed with 1000).
    public var idleTimeoutSeconds: Int
    /// The largest message a client may send over a WebSocket, in bytes (closed with 1009).
    public var maxMessageBytes: Int
    /// Seconds between keep-alives on server-sent events and multipart streams (5, as Apollo
    /// Router's multipart heartbeats).
    public var heartbeatSeconds: Int

    public init(
        queuedEventsPerSubscription: Int = 100, subscriptionsPerConnection: Int = 20, connectionsPerViewer: Int = 10,
        handshakeTimeoutSeconds: Int = 10, idleTimeoutSeconds: Int = 300, maxMessageBytes: Int = 65_536,
        heartbeatSeconds: Int = 5
    ) {
        self.queuedEventsPerSubscription = queuedEventsPerSubscription
        self.subscriptionsPerConnection = subscriptionsPerConnection
        self.connectionsPerViewer = connectionsPerViewer
        self.handshakeTimeoutSeconds = handshakeTimeoutSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxMessageBytes = maxMessageBytes
        self.heartbeatSeconds = heartbeatSeconds
    }
}
