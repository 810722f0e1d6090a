#if canImport(Glibc)
import Glibc
#endif

/// The bounds on live subscriptions and streaming connections, each with a clear end or refusal
/// when reached (docs/SERVER.md, "Subscriptions"; docs/SECURITY.md says what each promises).
public struct SubscriptionLimits: Sendable, Hashable {
    /// Events one subscription may have waiting; one more ends it with `SLOW_CONSUMER`.
    public var queuedEventsPerSubscription: Int
    /// Subscriptions one WebSocket connection may run at once.
    public var subscriptionsPerConnection: Int
    /// Streaming connections (WebSocket, server-sent events, multipart) one viewer may hold.
    public var connectionsPerViewer: Int
    /// Seconds a WebSocket may stay open without `connection_init` (closed with 4408).
    public var handshakeTimeoutSeconds: Int
    /// Seconds a signed-in WebSocket may stay open with no operation (closed with 1000). Pings do
    /// not count as operations.
    public var idleTimeoutSeconds: Int
    /// The largest message a client may send over a WebSocket, in bytes (closed with 1009).
    public var maxMessageBytes: Int
    /// Seconds between keep-alives on server-sent events and multipart streams (5, as Apollo
    /// Router's multipart heartbeats).
    public var heartbeatSeconds: Int
    /// The highest estimated cost a subscription's selection may have (`SUBSCRIPTION_MAX_COST`,
    /// 1,000, a tenth of `MAX_COST`): it runs again for every event, so it is held lower than a
    /// query's ceiling. Over it, the subscription is refused with `QUERY_TOO_COMPLEX`.
    public var maxCost: Int
    /// Live subscriptions one viewer may hold over all their connections and transports
    /// (`SUBSCRIPTIONS_PER_VIEWER`, 100); one more is refused with `TOO_MANY_SUBSCRIPTIONS`.
    public var subscriptionsPerViewer: Int
    /// Seconds within which a repeated notification of one actor, target and kind (a like
    /// toggled again and again) is told once (`NOTIFICATION_REPEAT_WINDOW`, 60; 0 tells each).
    public var notificationRepeatWindowSeconds: Int
    /// WebSockets one client address may hold while they are not signed in: before their
    /// `connection_init`, and anonymous ones (`STREAMS_PER_ADDRESS`, 16). One more is closed with
    /// 4429 at once. Signed-in connections count against ``connectionsPerViewer`` instead.
    public var connectionsPerAddress: Int
    /// Streaming connections (WebSockets, event streams) this replica holds at once, everyone's
    /// (`MAX_STREAMING_CONNECTIONS`; by default ``descriptorBound()``, below the process's file
    /// descriptor limit). One more is refused with 503 before the upgrade.
    public var maxConnections: Int
    /// Seconds an anonymous WebSocket may stay open with no operation running
    /// (`WEBSOCKET_ANONYMOUS_IDLE_TIMEOUT`, 15): an anonymous socket can run queries but never
    /// subscribe, so one holding nothing is closed (1000) after this grace.
    public var anonymousIdleTimeoutSeconds: Int
    /// The most followers an author may have for their post to be answered once for every
    /// subscriber allowed to read it (100,000; issue 53, ``PostAudience``): the fan-out holds the
    /// author's followers while it runs, about 16 bytes each plus the set's slack. Past it, each
    /// subscriber's answer is computed on their own, as for any selection that reads the viewer.
    public var sharedAudienceMax: Int

    public init(
        queuedEventsPerSubscription: Int = 100, subscriptionsPerConnection: Int = 20, connectionsPerViewer: Int = 10,
        handshakeTimeoutSeconds: Int = 10, idleTimeoutSeconds: Int = 300, maxMessageBytes: Int = 65_536,
        heartbeatSeconds: Int = 5, maxCost: Int = 1_000, subscriptionsPerViewer: Int = 100,
        notificationRepeatWindowSeconds: Int = 60, connectionsPerAddress: Int = 16, maxConnections: Int? = nil,
        anonymousIdleTimeoutSeconds: Int = 15, sharedAudienceMax: Int = 100_000
    ) {
        self.queuedEventsPerSubscription = queuedEventsPerSubscription
        self.subscriptionsPerConnection = subscriptionsPerConnection
        self.connectionsPerViewer = connectionsPerViewer
        self.handshakeTimeoutSeconds = handshakeTimeoutSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxMessageBytes = maxMessageBytes
        self.heartbeatSeconds = heartbeatSeconds
        self.maxCost = maxCost
        self.subscriptionsPerViewer = subscriptionsPerViewer
        self.notificationRepeatWindowSeconds = notificationRepeatWindowSeconds
        self.connectionsPerAddress = connectionsPerAddress
        self.maxConnections = maxConnections ?? Self.descriptorBound()
        self.anonymousIdleTimeoutSeconds = anonymousIdleTimeoutSeconds
        self.sharedAudienceMax = sharedAudienceMax
    }

    /// The default bound on streaming connections: what the file descriptor limit leaves after
    /// a quarter of it (at least 64) for plain HTTP connections, the store, the cache and logs,
    /// and at most 10,000. With `ulimit -n 300`, 225: the 269 idle sockets that made `/healthz`
    /// time out (issue 51) cannot all open.
    public static func descriptorBound() -> Int {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return 10_000 }
        return descriptorBound(forLimit: Int(clamping: limit.rlim_cur))
        #else
        return 10_000
        #endif
    }

    /// ``descriptorBound()`` for a descriptor limit.
    public static func descriptorBound(forLimit descriptors: Int) -> Int {
        min(10_000, max(1, descriptors - max(64, descriptors / 4)))
    }
}
