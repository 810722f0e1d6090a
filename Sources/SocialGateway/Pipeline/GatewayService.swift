import Foundation
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation
import Logging
import SocialDomain

/// The gateway's GraphQL service: `schema.graphql` bound to the domain, and the
/// request pipeline parse -> validate -> execute, with the limits of ``GatewayOptions``.
///
/// It knows nothing of HTTP: the server turns HTTP requests into ``GatewayRequest``s
/// and ``GatewayResponse``s back into HTTP responses.
///
/// ```swift
/// let service = try GatewayService(stores: stores)
/// let response = await service.execute(GatewayRequest(query: "{ viewer { handle } }", viewer: viewer))
/// ```
public final class GatewayService: Sendable {
    public let schema: GraphQLSchema
    public let stores: GatewayStores
    public let options: GatewayOptions
    let logger: Logger
    /// Parsed and validated documents by request text, so repeated queries skip both.
    let documents = PreparedDocumentStore()
    /// Cacheable queries being computed, shared by identical misses that arrive meanwhile.
    let inFlight = InFlightQueries()
    /// JSON bodies answered from the cache lately, per viewer (``answerRepeated(body:viewer:)``).
    let repeatedRequests = RepeatedRequests()
    /// Viewers' relations to profiles read lately, for shared cards (``KnownRelations``).
    let knownRelations = KnownRelations()
    /// Per-viewer answers asked lately: with ``memory`` on, one is kept from its second asking.
    let askedBefore = AskedBefore()
    /// The bound on queries executing at once (``GatewayOptions/maxConcurrentQueries``).
    public let executionSlots: ExecutionSlots
    /// The prices `schema.graphql` declares (`@cost`, `@listSize`), read once.
    public let costModel: CostModel
    /// What demand control refused, or would have (measure mode).
    public let demandCounters = DemandCounters()
    /// The graph kept in memory for every viewer (``GatewayOptions/graphMemory``), when on.
    public let memory: GraphMemory?
    /// ``memory``'s reads that answer at once, for the resolvers.
    let readyReads: (any ReadyGraphReads)?
    /// ``memory``'s reads with their fills, for the audience of a card (``audienceCardLookup``).
    let memoryReads: MemoryReads?

    /// - Throws: ``SchemaError`` or ``BindingError`` when `schema.graphql` and the resolvers disagree.
    public init(stores: GatewayStores, options: GatewayOptions = GatewayOptions(), logger: Logger = Logger(label: "social-gateway")) throws {
        self.schema = try GatewaySchema.make(sdl: try GatewaySchema.bundledSDL())
        // Memory answers only where every write reaches this replica's stream (or, without a
        // stream, where this service makes every write): otherwise it could keep what another
        // replica changed.
        if let limits = options.graphMemory, let snapshots = stores.snapshots, options.changes?.seesEveryWrite ?? true {
            let memory = GraphMemory(limits: limits, answering: !(options.changes?.followsFeed ?? false))
            options.changes?.subscribe { event in memory.handle(event) }
            var answering = stores.answering(from: memory, snapshots: snapshots)
            // Shared cards keyed by relation are what memory does better: every viewer's card
            // from the same kept records, with no relation read.
            answering.relations = nil
            self.stores = answering
            self.memory = memory
            let reads = MemoryReads(memory: memory, snapshots: snapshots)
            self.memoryReads = reads
            self.readyReads = MemoryReadyReads(reads: reads)
        } else {
            self.stores = stores
            self.memory = nil
            self.readyReads = nil
            self.memoryReads = nil
        }
        self.options = options
        self.logger = logger
        self.executionSlots = ExecutionSlots(limit: options.maxConcurrentQueries ?? 0)
        self.costModel = CostModel(schema: schema, defaultListSize: options.demandControl.defaultListSize)
    }

    /// The SDL this service serves.
    public static func schemaSDL() throws -> String { try GatewaySchema.bundledSDL() }

    /// The parsed and validated document for `text`, prepared once per text.
    func prepare(_ text: String) throws(GraphQLSyntaxError) -> PreparedDocument {
        try documents.document(for: text) { () throws(GraphQLSyntaxError) in
            try PreparedDocument(
                text: text, schema: schema, parse: options.parse, validation: options.validation,
                defaultMaxAge: options.cacheDefaultMaxAge, costModel: costModel)
        }
    }

    /// Runs one GraphQL request: persisted-query lookup, the prepared (parsed, validated)
    /// document for its text, then the response cache for queries or execution (and
    /// invalidation) for mutations.
    ///
    /// Validation and the introspection switch come before the cache, so a cached answer is
    /// never served for a document this server would refuse (the cache file outlives restarts
    /// with other settings); with prepared documents both checks are free on repeats.
    ///
    /// The answer is held to ``GatewayOptions/maxResponseBytes``, counted over the whole HTTP
    /// request (``RequestBudget``: a batch's answers together): execution stops when the answer
    /// outgrows what is left, and an answer over it, from the cache too, becomes the
    /// `RESPONSE_TOO_LARGE` error.
    public func execute(_ request: GatewayRequest) async -> GatewayResponse {
        if let limit = options.maxResponseBytes, request.budget.responseBytesLeft(of: limit) <= 0 {
            // Earlier operations of the batch used up its answer: this one does not run.
            return responseTooLarge(limit: limit, batched: true)
        }
        var priced: Priced?
        var response = await execute(request, priced: &priced)
        if let priced, Self.asksForCost(request) {
            response = addingCost(to: response, estimated: priced.cost, operation: priced.operation, prepared: priced.prepared)
        }
        guard let limit = options.maxResponseBytes else { return response }
        guard request.budget.commitResponse(bytes: response.body.count, limit: limit) else {
            return responseTooLarge(limit: limit, batched: request.budget.hasCommittedResponses)
        }
        return response
    }

    /// The `RESPONSE_TOO_LARGE` answer: no data, one error saying the limit (a request error:
    /// 422 under `application/graphql-response+json`).
    func responseTooLarge(limit: Int, batched: Bool) -> GatewayResponse {
        let message =
            batched
            ? "This operation's response would take the batch's responses past \(limit) bytes, the most one request is answered with (MAX_RESPONSE_BYTES); send it in a request of its own."
            : "The response would be larger than \(limit) bytes, the most one request is answered with (MAX_RESPONSE_BYTES); select fewer fields or smaller pages."
        var response = requestError([GraphQLError(message, extensions: ["code": "RESPONSE_TOO_LARGE", "maxBytes": .int(limit)])])
        response.cacheControl = "no-store"
        return response
    }

    /// An operation's estimated cost, kept for `extensions.cost`.
    struct Priced {
        let cost: Int
        let operation: OperationDefinition
        let prepared: PreparedDocument
    }

    /// ``execute(_:)`` up to the answer, with the estimate it was admitted on: the read path's
    /// stages in order, each a method of its own (``GatewayService+Stages.swift``). The stage
    /// before them, the repeated body, is ``serve(jsonBody:viewer:clientAddress:decode:)``'s.
    ///
    /// Demand control comes after validation and before the cache: an operation over `MAX_COST`
    /// is refused (enforce) whether or not an answer is cached. Then the rate limit: a cache hit
    /// spends 1 (it costs the server a lookup, whatever the operation's size), anything that
    /// executes spends its estimate from the caller's read or write bucket.
    private func execute(_ request: GatewayRequest, priced: inout Priced?) async -> GatewayResponse {
        let document: ResolvedDocument
        switch await persistedDocument(request) {
        case .success(let resolved): document = resolved
        case .failure(let refusal): return refusal.response
        }
        var admitted: AdmittedRequest
        switch prepare(document, request) {
        case .success(let prepared): admitted = prepared
        case .failure(let refusal): return refusal.response
        }
        if let refusal = price(&admitted, priced: &priced) { return refusal }
        // Only a document this server would run is persisted: nothing a client invents reaches the disk.
        if let hash = document.registerAs { _ = await options.cache.storePersistedQuery(document.text, sha256Hash: hash) }
        let key = await cacheKey(admitted)
        if let key, let hit = await lookup(key, admitted) { return hit }
        if let refusal = rateLimit(admitted) { return refusal }
        return await executeAndStore(admitted, key: key)
    }

    /// A request that parsed and validated, ready to execute.
    struct PreparedRequest {
        let document: Document
        let source: Source
        let operation: OperationDefinition?
        let variables: JSONObject
        let request: GatewayRequest
        /// The document's kept execution plans.
        var plans: ExecutionPlans? = nil
    }

    /// Executes; the response, and the request context (with the tags it read and changed).
    ///
    /// - Parameters:
    ///   - sharedAnswer: the answer may be handed to other requests (a cacheable query, whose
    ///     identical misses share one computation): it is built to the whole
    ///     ``GatewayOptions/maxResponseBytes`` rather than to what this request's batch has left,
    ///     and each request's ``execute(_:)`` holds it to its own budget.
    ///   - recordsReads: whether a cache may keep the answer (its read tags are recorded).
    func run(_ prepared: PreparedRequest, sharedAnswer: Bool = false, recordsReads: Bool = true) async -> (GatewayResponse, RequestContext) {
        let request = prepared.request
        let context = requestContext(for: request, recordsReads: recordsReads)
        let bytesLeft = options.maxResponseBytes.map { sharedAnswer ? $0 : request.budget.responseBytesLeft(of: $0) }
        let result = await GatewayTracing.step("graphql.execute") {
            await Executor.execute(
                schema: schema,
                request: GraphQLRequest(
                    document: prepared.document, source: prepared.source, operationName: request.operationName,
                    variables: prepared.variables, context: context, maxResponseBytes: bytesLeft, plans: prepared.plans))
        }
        return (response(for: result, prepared, bytesLeft: bytesLeft), context)
    }

    /// The per-request state resolvers read: the viewer, the stores, the loaders, the limits.
    ///
    /// - Parameter recordsReads: whether a cache may keep the answer (its read tags are recorded).
    func requestContext(for request: GatewayRequest, recordsReads: Bool = true) -> RequestContext {
        RequestContext(
            viewer: request.viewer, stores: stores, files: request.files, batchSize: options.loaderBatchSize, logger: logger,
            clientAddress: request.clientAddress, accountLimits: options.accountLimits, followLimits: options.followLimits, endedSessions: options.endedSessions,
            budget: request.budget, ready: readyReads, recordsReads: recordsReads)
    }

    /// The answer for an execution's result: request errors coded, the status-relevant facts read once.
    ///
    /// - Parameter bytesLeft: what the answer could have had (for the log when it had more).
    func response(for executed: ExecutionResult, _ prepared: PreparedRequest, bytesLeft: Int? = nil) -> GatewayResponse {
        let request = prepared.request
        var result = executed
        if !result.hasData && !result.isResponseTooLarge {
            // Execution refused to start: the operation could not be chosen (the name matches
            // none, or several need one), or the variables do not fit their types. The engine
            // leaves request errors uncoded, as graphql-js does; clients switch on these codes
            // (Apollo Server's), as they do on GRAPHQL_PARSE_FAILED and GRAPHQL_VALIDATION_FAILED.
            let code = prepared.operation == nil ? "OPERATION_RESOLUTION_FAILURE" : "BAD_USER_INPUT"
            result.errors = result.errors.map { error in
                var coded = error
                if coded.extensions?["code"] == nil {
                    var extensions = coded.extensions ?? [:]
                    extensions["code"] = .string(code)
                    coded.extensions = extensions
                }
                return coded
            }
        }
        let (checked, body) = result.bounded()
        if checked.isResponseTooLarge, let limit = options.maxResponseBytes {
            // Execution stopped (or its answer came out) past what the request may still send:
            // nothing of it goes out. A mutation's writes that ran stay done, as after any error.
            logger.notice(
                "response over its size limit: not sent",
                metadata: ["operation": "\(request.operationName ?? "")", "max_bytes": "\(bytesLeft ?? limit)"])
            return responseTooLarge(limit: limit, batched: request.budget.hasCommittedResponses)
        }
        var response = GatewayResponse(
            outcome: result.hasData ? .executed : .requestError, body: body, hasErrors: !result.errors.isEmpty,
            errorCodes: result.errors.compactMap { $0.extensions?["code"]?.stringValue }, cacheControl: "no-store")
        response.retryAfterSeconds = result.errors.lazy.compactMap { $0.extensions?["retryAfter"]?.intValue }.first
        return response
    }

    func requestError(_ errors: [GraphQLError]) -> GatewayResponse {
        GatewayResponse(
            outcome: .requestError, body: ExecutionResult.requestError(errors).serialized(), hasErrors: true,
            errorCodes: errors.compactMap { $0.extensions?["code"]?.stringValue })
    }
}
