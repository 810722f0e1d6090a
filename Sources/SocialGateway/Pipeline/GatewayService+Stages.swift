import Foundation
import GraphQLEngine
import GraphQLLanguage

/// The read path's stages, in the order ``GatewayService/execute(_:)`` runs them: persisted
/// document, prepare, price, cache key, lookup, rate limit, then execute (through single flight,
/// and the store of the answer). Each returns what the next needs, or the answer that ends the
/// request there (a refusal, a hit). The repeated body comes first, before any decoding
/// (``GatewayService/serve(jsonBody:viewer:clientAddress:decode:)``).
extension GatewayService {
    /// A request that passed the stages before the cache: its document, operation, and price.
    struct AdmittedRequest {
        let request: GatewayRequest
        let prepared: PreparedDocument
        let operation: OperationDefinition?
        /// The incremental format the answer takes; nil: whole, @defer and @stream ignored.
        let incremental: IncrementalFormat?
        /// The estimated cost (nil: demand control off).
        var cost: Int?
        /// The rate limiter's bucket the request spends from.
        var bucket: RateLimiter.Bucket {
            operation?.operation == .mutation ? .mutation : .query
        }
    }

    /// Where the answer is looked for and kept (nil from ``cacheKey(_:)``: no cache keeps it).
    struct KeyedRequest {
        let lookup: CacheLookup
        /// A card shared by the viewers with the same relation to its profile (issue 41).
        let shared: SharedCardLookup?
        /// False for a viewer's own answer asked for the first time while memory serves its data
        /// (``AskedBefore``): neither looked for nor kept.
        let keepsAnswer: Bool
    }

    // MARK: Persisted document

    /// Stage 1: the document's text: a trusted document by id, an automatic persisted query, or
    /// the query sent (``resolvePersistedQuery(_:)``).
    func persistedDocument(_ request: GatewayRequest) async -> Result<ResolvedDocument, RefusedRequest> {
        switch await resolvePersistedQuery(request) {
        case .success(let document): .success(document)
        case .failure(let failure): .failure(RefusedRequest(requestError([failure.error])))
        }
    }

    // MARK: Prepare

    /// Stage 2: the parsed and validated document (once per text), its operation, and the
    /// checks that refuse it before anything is spent: a write over GET, validation errors,
    /// introspection when it is off.
    ///
    /// Validation and the introspection switch come before the cache, so a cached answer is
    /// never served for a document this server would refuse (the cache file outlives restarts
    /// with other settings); with prepared documents both checks are free on repeats.
    func prepare(_ document: ResolvedDocument, _ request: GatewayRequest) -> Result<AdmittedRequest, RefusedRequest> {
        let prepared: PreparedDocument
        do throws(GraphQLSyntaxError) {
            prepared = try prepare(document.text)
        } catch {
            var syntax = GraphQLError(error)
            syntax.extensions = ["code": "GRAPHQL_PARSE_FAILED"]
            return .failure(RefusedRequest(requestError([syntax])))
        }
        let operation = prepared.operation(named: request.operationName)
        if request.isReadOnly, let operation, operation.operation != .query {
            return .failure(RefusedRequest(GatewayResponse(
                outcome: .mutationNotAllowed,
                body: ExecutionResult.requestError([
                    GraphQLError("Can only perform a \(operation.operation.rawValue) operation from a POST request.")
                ]).serialized(), hasErrors: true)))
        }
        if !prepared.errors.isEmpty { return .failure(RefusedRequest(requestError(prepared.errors))) }
        if !options.introspection, let location = prepared.introspectionUse {
            return .failure(RefusedRequest(requestError([
                GraphQLError(
                    "Introspection is disabled on this server.", ranges: [location], source: prepared.source,
                    extensions: ["code": "INTROSPECTION_DISABLED"])
            ])))
        }
        // An incremental answer only when the client asked for one and the operation defers or
        // streams something; otherwise @defer and @stream are ignored (the whole answer inline).
        let incremental = prepared.usesIncrementalDelivery && operation?.operation != .subscription ? request.incremental : nil
        return .success(AdmittedRequest(request: request, prepared: prepared, operation: operation, incremental: incremental))
    }

    // MARK: Price

    /// Stage 3: the operation's estimated cost (demand control): over `MAX_COST` it is refused
    /// (enforce), whether or not an answer is cached.
    func price(_ admitted: inout AdmittedRequest, priced: inout Priced?) -> GatewayResponse? {
        let cost = estimatedCost(admitted.prepared, admitted.operation, variables: admitted.request.variables)
        admitted.cost = cost
        guard let cost, let operation = admitted.operation else { return nil }
        if let refusal = costRefusal(cost, operation, admitted.prepared) { return refusal }
        priced = Priced(cost: cost, operation: operation, prepared: admitted.prepared)
        return nil
    }

    // MARK: Cache key

    /// Stage 4: where the answer is looked for and kept: per viewer, per audience, or shared by
    /// the viewers with the same relation to a card's profile; nil for a mutation, an upload, or
    /// with the cache off.
    func cacheKey(_ admitted: AdmittedRequest) async -> KeyedRequest? {
        let request = admitted.request
        guard options.cache.isEnabled, request.fileMap.isEmpty, let operation = admitted.operation else { return nil }
        let lookup: CacheLookup?
        var shared: SharedCardLookup?
        if let incremental = admitted.incremental {
            lookup = cacheLookup(admitted.prepared, operation: operation, request: request).map { $0.incremental(incremental) }
        } else {
            shared = await sharedCardLookup(admitted.prepared, operation: operation, request: request)
            lookup = shared?.lookup ?? cacheLookup(admitted.prepared, operation: operation, request: request)
        }
        guard let lookup else { return nil }
        var keepsAnswer = true
        // A viewer's own answer asked for the first time is neither looked for nor kept when
        // memory serves its data (``AskedBefore``): the many-viewers case stores nothing.
        if memory != nil, case .viewer = lookup.key.scope, !askedBefore.admit(lookup.key.digest) {
            keepsAnswer = false
        }
        return KeyedRequest(lookup: lookup, shared: shared, keepsAnswer: keepsAnswer)
    }

    // MARK: Lookup

    /// Stage 5: the cached answer, if one is kept; a hit spends 1 from the caller's read bucket.
    func lookup(_ key: KeyedRequest, _ admitted: AdmittedRequest) async -> GatewayResponse? {
        guard key.keepsAnswer,
              let hit = await GatewayTracing.step("cache.lookup", { await options.cache.lookup(key.lookup.key) })
        else { return nil }
        let request = admitted.request
        if let refusal = rateLimitRefusal(1, bucket: .query, viewer: request.viewer, clientAddress: request.clientAddress) {
            return refusal
        }
        demandCounters.recordSpent(1, bucket: .query)
        if admitted.incremental != nil { return Self.answerIncremental(hit, policy: key.lookup.policy) }
        var response = Self.answer(hit, policy: key.lookup.policy)
        response.cacheableQuery = CacheableQuery(lookup: key.lookup, relationToken: key.shared?.token)
        return response
    }

    // MARK: Rate limit

    /// Stage 6: what executing costs, spent from the caller's read or write bucket.
    func rateLimit(_ admitted: AdmittedRequest) -> GatewayResponse? {
        let request = admitted.request
        let spent = admitted.cost ?? 1
        if let refusal = rateLimitRefusal(spent, bucket: admitted.bucket, viewer: request.viewer, clientAddress: request.clientAddress) {
            return refusal
        }
        demandCounters.recordSpent(spent, bucket: admitted.bucket)
        return nil
    }

    // MARK: Execute (single flight, store)

    /// Stage 7: executes. A cacheable query goes through single flight (identical misses
    /// computed once) and its answer is stored off the request's path (``executeCached``); a
    /// mutation writes, then invalidates memory and the cache and tells the change stream.
    func executeAndStore(_ admitted: AdmittedRequest, key: KeyedRequest?) async -> GatewayResponse {
        let request = admitted.request
        var variables = request.variables
        do {
            try UploadMap.apply(request.fileMap, files: request.files, to: &variables)
        } catch {
            return requestError([GraphQLError(error.message, extensions: ["code": "BAD_USER_INPUT"])])
        }
        let operation = admitted.operation
        let ready = PreparedRequest(
            document: admitted.prepared.document, source: admitted.prepared.source, operation: operation, variables: variables,
            request: request, plans: admitted.prepared.plans)
        if let incremental = admitted.incremental {
            return await executeIncremental(ready, format: incremental, lookup: key?.lookup, writes: operation?.operation == .mutation)
        }
        if let key {
            var response = await executeCached(ready, key.lookup, shared: key.shared, keeps: key.keepsAnswer)
            // Only an answer the cache keeps has a validator (a stale or failed one has none).
            if response.etag != nil { response.cacheableQuery = CacheableQuery(lookup: key.lookup, relationToken: key.shared?.token) }
            return response
        }
        return await executeUncached(ready, writes: operation?.operation == .mutation)
    }

    /// A mutation, or a query no cache keeps: executed; a write's changes invalidate what it changed.
    private func executeUncached(_ ready: PreparedRequest, writes: Bool) async -> GatewayResponse {
        // A mutation's write commits before its invalidation: the cache journals the gap, so
        // that a crash inside it cannot leave answers older than the store (see beginWrite()).
        if writes { options.cache.beginWrite() }
        // No cache keeps this answer: its reads are not recorded.
        var (response, context) =
            writes ? await run(ready, recordsReads: false) : await executionSlots.withSlot { await run(ready, recordsReads: false) }
        let changed = context.changedTags.all
        // Memory first, at once and before the answer: the writer's next read must not find
        // what it replaced (read-your-writes); other replicas hear of it through the stream.
        if let memory, !changed.isEmpty { memory.apply(changed.map(DataChange.init(tag:))) }
        if !changed.isEmpty { await options.cache.invalidate(tags: changed) }
        if writes {
            options.cache.endWrite()
            // Readers of the change stream (subscriptions) hear of the write once it is in the
            // store and out of the cache; on a backend with a feed, the feed tells them instead.
            if let changes = options.changes {
                await changes.publish(Set(changed.map(DataChange.init(tag:))), activities: context.activities.all)
            }
            // A mutation's answer is for its caller alone, now (tokens, payloads): no cache keeps it.
            response.cacheControl = "no-store"
        }
        return response
    }
}

/// The answer a stage ends a request with instead of going on (a refusal, an error).
struct RefusedRequest: Error {
    let response: GatewayResponse
    init(_ response: GatewayResponse) { self.response = response }
}
