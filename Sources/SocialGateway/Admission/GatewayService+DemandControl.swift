import Foundation
import GraphQLEngine
import GraphQLLanguage
import SocialDomain

extension GatewayService {
    /// The estimated cost of the operation a request runs (``GraphQLEngine/CostEstimator``), or
    /// nil when cost is off or no operation is chosen.
    ///
    /// An operation whose slicing arguments are all literals has one price whatever the
    /// variables: it is computed once, when the document is prepared. Otherwise the walk (linear
    /// in the document) runs once per set of values of the variables it reads, which the
    /// document keeps (``CostMemo``).
    func estimatedCost(_ prepared: PreparedDocument, _ operation: OperationDefinition?, variables: JSONObject) -> Int? {
        guard options.demandControl.costMode != .off, let operation else { return nil }
        let name = operation.name?.value
        if let known = prepared.staticCosts[name] { return known }
        let estimate = {
            CostEstimator.estimate(operation, schema: self.schema, model: self.costModel, fragments: prepared.fragments, variables: variables).cost
        }
        guard let read = prepared.costVariables[name] else { return estimate() }
        let values = read.map { variables[$0] }
        // Only small values are kept: these are the request's variables before coercion, and a
        // slicing variable sent as a long string or a list must not be held by the memo.
        guard values.allSatisfy(CostMemo.isKeepable) else { return estimate() }
        return prepared.costMemo.cost(CostMemo.Key(operation: name, values: values), compute: estimate)
    }

    /// The refusal of an operation whose estimate is over `MAX_COST` in enforce mode; in measure
    /// mode it is counted and logged, and nil lets it run.
    func costRefusal(_ cost: Int, _ operation: OperationDefinition, _ prepared: PreparedDocument) -> GatewayResponse? {
        let limit = options.demandControl.maxCost
        guard cost > limit else { return nil }
        let mode = options.demandControl.costMode
        demandCounters.record(.cost, mode: mode)
        let subject = operation.name.map { "Operation \"\($0.value)\"" } ?? "Anonymous operation"
        guard mode == .enforce else {
            logger.notice(
                "operation over the maximum cost (measure mode: not refused)",
                metadata: ["operation": "\(operation.name?.value ?? "")", "cost": "\(cost)", "max_cost": "\(limit)"])
            return nil
        }
        return requestError([
            GraphQLError(
                "\(subject) has an estimated cost of \(cost), which exceeds the maximum cost of \(limit).",
                ranges: [operation.range], source: prepared.source,
                extensions: ["code": "QUERY_TOO_COMPLEX", "cost": ["estimated": .int(cost), "max": .int(limit)]])
        ])
    }

    /// Spends `cost` from the caller's bucket; the `TOO_MANY_REQUESTS` answer (429) when it has
    /// not enough in enforce mode. In measure mode a refusal is counted and logged, and nil lets
    /// the request run.
    func rateLimitRefusal(_ cost: Int, bucket: RateLimiter.Bucket, viewer: Viewer, clientAddress: String?) -> GatewayResponse? {
        let mode = options.demandControl.rateLimitMode
        guard mode != .off, let limiter = options.rateLimiter else { return nil }
        // Anonymous callers by address, an IPv6 one with its /64 (``AddressGroup``).
        let caller: RateLimiter.Caller = viewer.userId.map { .viewer($0.lowercased) } ?? .address(AddressGroup.key(clientAddress))
        let decision = limiter.spend(cost, caller: caller, bucket: bucket)
        guard !decision.allowed else { return nil }
        demandCounters.record(bucket == .query ? .rateLimitQuery : .rateLimitMutation, mode: mode)
        guard mode == .enforce else {
            logger.notice(
                "request over its rate limit (measure mode: not refused)",
                metadata: ["bucket": "\(bucket.rawValue)", "cost": "\(cost)", "signed_in": "\(viewer.userId != nil)"])
            return nil
        }
        let kind = bucket == .query ? "reads" : "writes"
        let policy = decision.policy
        var response = requestError([
            GraphQLError(
                "Too many requests: this caller's budget for \(kind) (\(policy.capacity) cost units, refilled at "
                    + "\(policy.refillPerSecond) a second) is spent. Retry in \(decision.retryAfterSeconds) seconds.",
                extensions: [
                    "code": .string(DomainErrorCode.tooManyRequests.rawValue), "retryAfter": .int(decision.retryAfterSeconds),
                    "cost": .int(cost),
                ])
        ])
        response.retryAfterSeconds = decision.retryAfterSeconds
        response.rateLimit = decision
        return response
    }

    /// Whether the request asks for `extensions.cost` (`"extensions": {"cost": true}`).
    static func asksForCost(_ request: GatewayRequest) -> Bool {
        switch request.extensions?["cost"] {
        case .bool(let flag)?: flag
        case .object?: true
        default: false
        }
    }

    /// The answer with `extensions.cost`: the estimate it was admitted on, and the actual cost of
    /// its `data` (``GraphQLEngine/ActualCost``). On a cache hit, the actual cost is that of the
    /// stored answer: what computing it cost when it was computed (the hit itself ran nothing).
    ///
    /// Only a client that asked gets it, and only on its own copy: the cache stores bodies without
    /// it, so another client never sees it.
    func addingCost(
        to response: GatewayResponse, estimated: Int, operation: OperationDefinition, prepared: PreparedDocument
    ) -> GatewayResponse {
        guard response.outcome == .executed, case .object(var body)? = try? JSONParser.parse(response.body) else { return response }
        let actual = ActualCost.of(
            operation, data: body["data"], schema: schema, model: costModel, fragments: prepared.fragments)
        var extensions = body["extensions"]?.objectValue ?? JSONObject()
        extensions["cost"] = [
            "estimated": .int(estimated), "actual": .int(actual), "max": .int(options.demandControl.maxCost),
            "mode": .string(options.demandControl.costMode.rawValue),
        ]
        body["extensions"] = .object(extensions)
        var writer = JSONWriter(capacity: response.body.count + 96)
        writer.write(.object(body))
        var answered = response
        answered.body = writer.bytes
        // A body of its own: the stored compressed copy and the validator are of the cached body.
        answered.deflatedBody = nil
        answered.etag = nil
        return answered
    }
}
