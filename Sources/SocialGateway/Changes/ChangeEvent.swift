import SocialDomain

/// One event of the gateway's ``ChangeStream``: what the backend's change feed reported, or a
/// write this replica made, typed.
public enum ChangeEvent: Sendable, Equatable {
    /// The feed is listening: every committed write is reported from now on (none before).
    case connected
    /// Committed writes changed this data.
    case changed(Set<DataChange>, origin: ChangeOrigin)
    /// Committed writes were things profiles did (a follow, a like, a comment, a post), in commit
    /// order: what subscriptions deliver. A write's ``changed(_:origin:)`` comes first.
    case happened([Activity], origin: ChangeOrigin)
    /// Sessions ended through a replica: their access tokens are refused from now on.
    case sessionsEnded([SessionEnd])
    /// A notification nobody can read: anything may have changed.
    case unreadable(String)
    /// The feed is gone: writes may go unreported until the next ``connected``.
    case lost(String)

    /// The stream's form of a feed's event.
    public init(_ event: ChangeFeedEvent) {
        switch event {
        case .connected: self = .connected
        case .changed(let tags): self = .changed(Set(tags.map(DataChange.init(tag:))), origin: .feed)
        case .happened(let activity): self = .happened([activity], origin: .feed)
        case .sessionsEnded(let ends): self = .sessionsEnded(ends)
        case .unreadable(let payload): self = .unreadable(payload)
        case .lost(let reason): self = .lost(reason)
        }
    }
}

/// Where a change came from.
public enum ChangeOrigin: Sendable, Hashable {
    /// The backend's change feed: any replica's write, or one made past the gateway.
    case feed
    /// A mutation of this replica on a backend without a feed (the embedded store): published by
    /// the service once the write committed and its cache invalidation returned.
    case thisReplica
}
