import Foundation
import Logging
import PostgresNIO
import SocialDomain
import Synchronization

/// The cache notifications of migration 20250301001200, as a ``ChangeFeed``: one connection of
/// its own LISTENs on ``channel``; every committed write to a table the cache reads, by anyone,
/// arrives as `{"v":1,"table":"...","tags":[...]}`, and a write that is an ``Activity`` (a follow,
/// a like, a comment, a post; migration 20250301002200) adds `"activity":{...}` with its fields:
/// ``ChangeFeedEvent/changed(tags:)`` then ``ChangeFeedEvent/happened(_:)``.
///
/// The connection is checked with a `select 1` every ``keepAliveInterval`` (a silently dead TCP
/// connection would otherwise look like a quiet database); when it fails or drops, the feed
/// reports ``ChangeFeedEvent/lost(_:)`` and reconnects with backoff (100 ms doubling to 2 s).
///
/// Replicas announce ended sessions on the same channel (``announce(_:)``), as
/// `{"v":1,"sessionsEnded":[...]}` sent with `pg_notify` over the listening connection.
public struct PostgresChangeFeed: ChangeFeed {
    /// The channel the triggers notify.
    public static let channel = "social_gateway_cache"
    public var keepAliveInterval: Duration = .seconds(2)
    let configuration: PostgresConfiguration
    let logger: Logger
    /// The listening connection while there is one: announcements go out through it.
    private let current = CurrentConnection()

    public init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    public func follow(_ deliver: @escaping @Sendable (ChangeFeedEvent) async -> Void) async {
        var backoff = Duration.milliseconds(100)
        var attempt = 0
        // A loss is reported once, not once per failed reconnect: `lost` counts outages.
        var lossReported = false
        while !Task.isCancelled {
            attempt += 1
            let reason: String
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: try configuration.listenConfiguration(), id: attempt, logger: logger)
                current.set(connection)
                defer { current.set(nil) }
                do {
                    try await listen(on: connection) {
                        backoff = .milliseconds(100)
                        lossReported = false
                        await deliver(.connected)
                    } deliver: { event in
                        await deliver(event)
                    }
                    reason = "the notification stream ended"
                } catch {
                    reason = PostgresStore.describe(error)
                }
                try? await connection.close()
            } catch {
                reason = PostgresStore.describe(error)
            }
            if Task.isCancelled { return }
            if !lossReported {
                lossReported = true
                logger.warning("cache change feed lost; the response cache serves nothing until it is back",
                               metadata: ["reason": "\(reason)", "retryIn": "\(backoff)"])
                await deliver(.lost(reason))
            } else {
                logger.debug("cache change feed: reconnect failed", metadata: ["reason": "\(reason)"])
            }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(2))
        }
    }

    /// LISTENs, reports `connected` once the server has confirmed it, then delivers each
    /// notification until the connection fails (thrown) or the task is cancelled.
    private func listen(
        on connection: PostgresConnection, connected: () async -> Void,
        deliver: @escaping @Sendable (ChangeFeedEvent) async -> Void
    ) async throws {
        let interval = keepAliveInterval
        let logger = logger
        try await connection.listen(on: Self.channel) { notifications in
            await connected()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await notification in notifications {
                        for event in Self.events(payload: notification.payload, logger: logger) {
                            await deliver(event)
                        }
                    }
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: interval)
                        _ = try await withDeadline(interval) {
                            try await connection.query("select 1", logger: logger)
                        }
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
    }

    /// Sends `end` to every replica listening, this one included.
    /// - Throws: ``ChangeFeedAnnounceError`` while the feed has no connection; the database's error.
    public func announce(_ end: SessionEnd) async throws {
        guard let connection = current.get() else { throw ChangeFeedAnnounceError() }
        let payload = String(decoding: try JSONEncoder().encode(SessionsPayload(v: 1, sessionsEnded: [end])), as: UTF8.self)
        _ = try await withDeadline(.seconds(2)) {
            try await connection.query("select pg_notify(\(Self.channel), \(payload))", logger: logger)
        }
    }

    /// What ``announce(_:)`` sends; ``events(payload:logger:)`` reads it.
    struct SessionsPayload: Encodable {
        var v: Int
        var sessionsEnded: [SessionEnd]
    }

    /// What a notification says: its tags, followed by its activity when it has one; the
    /// sessions a replica ended; or `unreadable` for anything but a version-1 payload with a
    /// non-empty array of string tags or of sessions.
    ///
    /// An activity that does not decode, or is not ``Activity/isWellFormed``, is dropped with a
    /// warning: the tags are still good, so the cache need not be cleared for it, and a
    /// subscriber is better told nothing than something wrong.
    static func events(payload: String, logger: Logger) -> [ChangeFeedEvent] {
        // One decode per notification, whichever kind it is: every committed write sends one.
        struct Payload: Decodable {
            var v: Int
            var tags: [String]?
            var sessionsEnded: [SessionEnd]?
            var activity: PayloadActivity?
        }
        guard let decoded = try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)), decoded.v == 1 else {
            return [.unreadable(String(payload.prefix(200)))]
        }
        if let ends = decoded.sessionsEnded, !ends.isEmpty, decoded.tags == nil { return [.sessionsEnded(ends)] }
        guard let tags = decoded.tags, decoded.sessionsEnded == nil, !tags.isEmpty,
              tags.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 200 })
        else { return [.unreadable(String(payload.prefix(200)))] }
        switch decoded.activity {
        case nil:
            return [.changed(tags: Set(tags))]
        case .some(.readable(let activity)) where activity.isWellFormed:
            return [.changed(tags: Set(tags)), .happened(activity)]
        case .some:
            // 500, not 200: the activity comes after the tags, and it is what went wrong.
            logger.warning("change feed: an activity this code cannot read was dropped; its tags were kept",
                           metadata: ["payload": "\(payload.prefix(500))"])
            return [.changed(tags: Set(tags))]
        }
    }

    /// A notification's `activity`, whether it decodes or not: a bad one must not cost the tags
    /// beside it. (A JSON `null` is no activity, as is a missing key.)
    enum PayloadActivity: Decodable {
        case readable(Activity)
        case unreadable

        init(from decoder: any Decoder) throws {
            self = (try? Activity(from: decoder)).map(Self.readable) ?? .unreadable
        }
    }
}

/// The change feed is not connected: nothing can be announced now.
public struct ChangeFeedAnnounceError: Error, CustomStringConvertible {
    public var description: String { "the change feed is not connected" }
}

/// The feed's listening connection, shared with ``PostgresChangeFeed/announce(_:)``.
final class CurrentConnection: Sendable {
    private let connection = Mutex<PostgresConnection?>(nil)
    func set(_ value: PostgresConnection?) { connection.withLock { $0 = value } }
    func get() -> PostgresConnection? { connection.withLock { $0 } }
}
