import Foundation
import SocialDomain
import SocialGateway

/// What the HTTP server needs from whichever store backs it: the domain's ports, how tokens
/// are verified, and what a store may add (media files it keeps itself, demo users whose
/// tokens the playground hands out).
///
/// The server never sees a concrete store: the composition root (`GatewayAssembly`) opens one
/// and describes it with this value, so adding a store touches that root only.
///
/// ```swift
/// let backend = GatewayBackend(stores: GatewayStores(profiles: store, follows: store, posts: store, stories: store, media: store),
///                              jwtSecret: secret, summary: "my store")
/// ```
public struct GatewayBackend: Sendable {
    /// The ports every read and write goes through.
    public var stores: GatewayStores
    /// The HS256 secret tokens are verified with, if any.
    public var jwtSecret: String?
    /// The JWKS for ES256/RS256 tokens, if any.
    public var jwks: JWKSCache?
    /// Media files served at `GET /<bucket>/**` (`/avatars/...`, `/stories/...`); nil when the
    /// store's public URLs point elsewhere (Supabase Storage; the routes then answer 404).
    public var mediaFiles: (any MediaFileSource)?
    /// Periodic clean-up the store asks for (the embedded store's expired stories), run every
    /// ``ServerConfiguration`` housekeeping interval while the server runs.
    public var housekeeping: [@Sendable () async -> Void]
    /// The users `GET /playground/demo-tokens` signs tokens for (with ``jwtSecret``); empty
    /// means the route answers 404.
    public var demoUsers: [DemoUser]
    /// Other writers' changes (other replicas, apps writing to the database directly), for the
    /// response cache to follow; nil when the store has no such feed (the embedded store is only
    /// ever written through this process and those sharing its cache file).
    public var changeFeed: (any ChangeFeed)?
    /// Whether the store is written only through this process (the embedded store): then the
    /// gateway's own writes are every write, and subscriptions work without a ``changeFeed``.
    /// False for a remote store without a feed, where subscriptions refuse to start.
    public var writesOnlyThroughGateway = false
    /// Queries executing at once that suit this store, unless `MAX_CONCURRENT_QUERIES` says
    /// otherwise (``GatewayOptions/maxConcurrentQueries``). A local store's executions use the
    /// CPU, so a few per core keep writes and hits from queueing behind them (issue #17); a remote
    /// store's mostly wait on the network, and a small bound would cap its throughput at the bound
    /// over the round trips (8 slots at 60 ms: 133 uncached answers a second). Default 64.
    public var concurrentQueries: Int
    /// The store in a few words, for the start-up log line ("embedded store at data").
    public var summary: String
    /// Releases the store's connections; called once when the server has stopped.
    public var shutdown: @Sendable () async -> Void

    public init(
        stores: GatewayStores, jwtSecret: String?, jwks: JWKSCache? = nil, mediaFiles: (any MediaFileSource)? = nil,
        housekeeping: [@Sendable () async -> Void] = [],
        demoUsers: [DemoUser] = [], changeFeed: (any ChangeFeed)? = nil, concurrentQueries: Int = 64, summary: String,
        shutdown: @escaping @Sendable () async -> Void = {}
    ) {
        self.concurrentQueries = concurrentQueries
        self.housekeeping = housekeeping
        self.changeFeed = changeFeed
        self.stores = stores
        self.jwtSecret = jwtSecret
        self.jwks = jwks
        self.mediaFiles = mediaFiles
        self.demoUsers = demoUsers
        self.summary = summary
        self.shutdown = shutdown
    }
}

/// A user the playground's "Act as" picker offers (a demo user of a local store).
public struct DemoUser: Sendable, Hashable {
    public var id: UUID
    public var handle: String
    public var displayName: String

    public init(id: UUID, handle: String, displayName: String) {
        self.id = id
        self.handle = handle
        self.displayName = displayName
    }
}
