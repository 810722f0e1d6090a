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
}

/// One thing a ``ChangeFeed`` reports.
public enum ChangeFeedEvent: Sendable, Equatable {
    /// Listening: from now on every committed write is reported. Writes before this moment
    /// (while the feed was lost, or before the process started) were not.
    case connected
    /// A committed write changed the data behind these cache tags (`Profile:<id>`,
    /// `followers:<id>`, `following:<id>`, `follow-lists`, `search`).
    case changed(tags: Set<String>)
    /// A notification this code cannot read: the follower cannot tell what changed, so it must
    /// assume anything did.
    case unreadable(String)
    /// The connection is gone (or could not be made): writes may go unreported until the next
    /// ``connected``.
    case lost(String)
}
