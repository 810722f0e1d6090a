/// Writes made anywhere, as the backend reports them: other replicas of the gateway, apps that
/// talk to the database directly, a SQL console. A gateway with a response cache follows the
/// feed to drop what those writes made stale, so that replicas behind one load balancer stay
/// coherent (docs/SERVER.md, "Replicas").
///
/// The feed is at-most-once while connected and silent while not, so a follower must treat a
/// ``ChangeFeedEvent/lost(_:)`` as "anything may have changed": the cache serves nothing until
/// the next ``ChangeFeedEvent/connected`` (and clears itself then).
///
/// ```swift
/// await feed.follow { event in
///     switch event {
///     case .connected: await cache.removeAll(); cache.resumeLookups()
///     case .changed(let tags): await cache.invalidate(tags: tags)
///     ...
///     }
/// }
/// ```
public protocol ChangeFeed: Sendable {
    /// Delivers events in order until the calling task is cancelled, reconnecting by itself
    /// after a failure (each attempt reported as ``ChangeFeedEvent/lost(_:)`` until it works).
    func follow(_ deliver: @escaping @Sendable (ChangeFeedEvent) async -> Void) async

    /// Tells every follower of the feed, this replica's included, that sessions ended (a
    /// sign-out, a password change): they arrive as ``ChangeFeedEvent/sessionsEnded(_:)``.
    /// - Throws: when the feed cannot send now (it is lost); the caller logs it.
    func announce(_ end: SessionEnd) async throws
}

extension ChangeFeed {
    /// A feed of one process's own writes has no other replica to tell.
    public func announce(_ end: SessionEnd) async throws {}
}

/// One thing a ``ChangeFeed`` reports.
public enum ChangeFeedEvent: Sendable, Equatable {
    /// Listening: from now on every committed write is reported. Writes before this moment
    /// (while the feed was lost, or before the process started) were not.
    case connected
    /// A committed write changed the data behind these cache tags (`Profile:<id>`,
    /// `followers:<id>`, `following:<id>`, `follow-lists`, `search`).
    case changed(tags: Set<String>)
    /// A committed write was something a profile did that subscribers may be told of (a follow,
    /// a like, a comment, a post). It arrives after the ``changed(tags:)`` of the same write.
    case happened(Activity)
    /// Sessions ended through a replica of the gateway: their access tokens are refused from now on.
    case sessionsEnded([SessionEnd])
    /// A notification this code cannot read: the follower cannot tell what changed, so it must
    /// assume anything did.
    case unreadable(String)
    /// The connection is gone (or could not be made): writes may go unreported until the next
    /// ``connected``.
    case lost(String)
}
