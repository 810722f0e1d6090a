import GraphQLLanguage
import GraphQLValidation
import SocialDomain

/// The gateway's limits, with defaults that suit a public endpoint.
///
/// Every limit answers with a clear error when crossed; none is silent.
public struct GatewayOptions: Sendable {
    /// Parser limits for request documents: 15,000 tokens, 64 levels of nesting.
    public var parse = ParseOptions(maxTokens: 15_000, maxDepth: 64)
    /// Validation guards: 100 errors at most, selection depth 15, 50 aliases. The cost is demand
    /// control's (``demandControl``), priced per request with its variables, not validation's
    /// field count (``GraphQLValidation/ValidationOptions/maxFieldCount``, off here).
    ///
    /// Depth 15 because introspection counts like any other selection: the standard
    /// introspection queries of graphql-js 17 and graphql-core 3.3 (nine `ofType` levels under
    /// `fields { args { type } }`) are 15 deep, graphql-js 16's and gql's 13. Depth bounds the
    /// shape; what a deep selection costs is the cost limit's business.
    public var validation = ValidationOptions(maxErrors: 100, maxDepth: 15, maxFieldCount: nil, maxAliases: 50)
    /// The most bytes one answer may have (`MAX_RESPONSE_BYTES`, 4 MiB): the operations of an
    /// HTTP batch together, one subscription event, one operation over a WebSocket. Counted while
    /// the answer is built; past it execution stops, what was built is dropped and the client gets
    /// `RESPONSE_TOO_LARGE` instead of any part of the data. nil: no bound.
    ///
    /// Why 4 MiB: the largest answers the shipped clients ask for are a follower graph (131-149 KB)
    /// and the full introspection (99-107 KB); an operation at `MAX_COST` (10,000 objects) of
    /// cards is about 2 MB. The bound is what any future mistake in pricing can cost in memory and
    /// bytes sent.
    public var maxResponseBytes: Int? = GatewayOptions.defaultMaxResponseBytes
    /// ``maxResponseBytes``' default: 4 MiB.
    public static let defaultMaxResponseBytes = 4 << 20
    /// Demand control: the `@cost`/`@listSize` prices, `MAX_COST` and the modes of the cost limit
    /// and of the rate limits.
    public var demandControl = DemandControlOptions()
    /// The rate limits per viewer (per address for anonymous callers), spent by each request's
    /// estimated cost; nil limits nothing. Shared by every request of this service.
    public var rateLimiter: RateLimiter? = RateLimiter(query: GatewayOptions.queryRateLimit, mutation: GatewayOptions.mutationRateLimit)
    /// Reads per caller by default: 50,000 cost units a second, bursts of 100,000 (two seconds'
    /// worth), so that one viewer (or one address, or /64) flooding uncached reads takes a small
    /// share of the server and meets 429s past it. Derived as a quarter of what a replica served
    /// under the load test's mixed workload with graph memory off (about 210,000 read units a
    /// second on this 2-core machine); with memory on it serves about 562,000, so it is now about
    /// a tenth, still some 2,000 uncached cards (23 units) or 50 follower graphs (about 1,000) a
    /// second; a cache hit costs 1. Measured: docs/performance/2026-12-02-rate-limit-defaults.md
    /// (`scripts/rate-limit-check`). A deployment with bigger replicas raises it
    /// (`RATE_LIMIT_QUERY_PER_SECOND`, `RATE_LIMIT_QUERY_CAPACITY`). Before issue 51 it was
    /// 5,000,000 a second, which no client ever met: one token kept both cores busy.
    public static let queryRateLimit = RateLimiter.Policy(name: "query", capacity: 100_000, refillPerSecond: 50_000)
    /// Writes per caller by default: 3,000 cost units a second, bursts of 6,000: derived as a
    /// quarter of the about 13,700 write units a second the embedded store's single writer took
    /// when it was set (toggles and profile updates of random viewers); measured again with
    /// graph memory on, 48,700, so a small share; a mutation costs 10 plus its selection, so
    /// about 230 writes a second, more than any client makes. Before issue 51: 100,000 a second.
    public static let mutationRateLimit = RateLimiter.Policy(name: "mutation", capacity: 6_000, refillPerSecond: 3_000)
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
