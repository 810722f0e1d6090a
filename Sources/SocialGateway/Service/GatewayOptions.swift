import GraphQLLanguage
import GraphQLValidation
import SocialDomain

/// The gateway's limits, with defaults that suit a public endpoint.
///
/// Every limit answers with a clear error when crossed; none is silent.
public struct GatewayOptions: Sendable {
    /// Parser limits for request documents: 15,000 tokens, 64 levels of nesting.
    public var parse = ParseOptions(maxTokens: 15_000, maxDepth: 64)
    /// Validation guards: 100 errors at most, selection depth 12, 50 aliases. The cost is demand
    /// control's (``demandControl``), priced per request with its variables, not validation's
    /// field count (``GraphQLValidation/ValidationOptions/maxCost``, off here).
    public var validation = ValidationOptions(maxErrors: 100, maxDepth: 12, maxCost: nil, maxAliases: 50)
    /// Demand control: the `@cost`/`@listSize` prices, `MAX_COST` and the modes of the cost limit
    /// and of the rate limits.
    public var demandControl = DemandControlOptions()
    /// The rate limits per viewer (per address for anonymous callers), spent by each request's
    /// estimated cost; nil limits nothing. Shared by every request of this service.
    public var rateLimiter: RateLimiter? = RateLimiter(query: GatewayOptions.queryRateLimit, mutation: GatewayOptions.mutationRateLimit)
    /// Reads per caller by default: bursts of 10,000,000 cost units, 5,000,000 a second. Generous:
    /// one viewer may use what a whole replica serves (the load test's follower graph costs 1,153
    /// and a replica answers at most about 8,000 of them a second); a deployment tunes it down
    /// (`RATE_LIMIT_QUERY_CAPACITY`, `RATE_LIMIT_QUERY_PER_SECOND`).
    public static let queryRateLimit = RateLimiter.Policy(name: "query", capacity: 10_000_000, refillPerSecond: 5_000_000)
    /// Writes per caller by default: bursts of 200,000 cost units, 100,000 a second (a mutation
    /// costs 10 plus its selection: about 5,000 a second).
    public static let mutationRateLimit = RateLimiter.Policy(name: "mutation", capacity: 200_000, refillPerSecond: 100_000)
    /// Whether `__schema` and `__type` may be queried (the playground needs them).
    public var introspection = true
    /// The most keys one store call receives from a loader. Large, so that a query level
    /// is one call; the stores split further where their backend needs it.
    public var loaderBatchSize = 1000
    /// The response cache (none unless given; `serve` opens the SQLite one in the data folder).
    public var cache: any ResponseCaching = NoResponseCache()
    /// The stream the service publishes its committed writes to when the backend has no change
    /// feed of its own (``ChangeStream/publish(_:)``); nil publishes nothing.
    public var changes: ChangeStream?
    /// Seconds a response may be cached when no `@cacheControl` hint says otherwise.
    public var cacheDefaultMaxAge = 30
    /// Documents known by id from the start (a manifest that client tooling emitted).
    public var trustedDocuments: TrustedDocuments?
    /// Run only ``trustedDocuments``: any other document is refused before it is parsed
    /// (`PERSISTED_QUERIES_ONLY`), and automatic persisted queries register nothing.
    public var trustedDocumentsOnly = false

    /// The sign-in and sign-up rate limits, shared by every request of this service.
    public var accountLimits = AccountLimits()
    /// Follows and follow requests per viewer (``FollowLimits``: 100 an hour, 500 a day).
    public var followLimits = FollowLimits()
    /// Sessions ended through this gateway (sign-out, password change or reset), whose access
    /// tokens the server refuses; the HTTP layer's authenticator reads the same instance.
    public var endedSessions = EndedSessions()
    /// Queries executing at once (cache hits and mutations do not count); the rest wait their
    /// turn, so that a burst of uncached reads cannot delay writes and hits (see
    /// ``ExecutionSlots``). 0 means no bound; nil (the default) lets the server take the bound
    /// that suits its store (`GatewayBackend.concurrentQueries`: a local store is CPU-bound, a
    /// remote one mostly waits on the network), and a bare ``GatewayService`` none.
    public var maxConcurrentQueries: Int?
    /// Profiles, follow lists and viewers' facts kept in memory for every viewer, with the
    /// domain's rule applied per request (``GraphMemory``), where the backend reads the graph
    /// unfiltered (``GatewayStores/snapshots``) and every write reaches the change stream; nil
    /// (the default of a bare service) keeps every read the store's. `serve` turns it on
    /// (`GRAPH_MEMORY`, `GRAPH_MEMORY_BYTES`).
    public var graphMemory: GraphMemory.Limits?
    public init() {}
}
