import Foundation
import GraphQLEngine
import GraphQLLanguage
import SocialDomain

/// The payloads after the first of an incremental answer (`@defer`, `@stream`), produced while
/// the HTTP layer writes them: deferred work runs only once the first payload is on its way.
///
/// Read it once. Nothing runs, and nothing is held (no execution slot), until ``forEach(_:)``
/// is called; a throw from its body (the client went away) stops what is still running.
public final class IncrementalPayloads: Sendable {
    private let produce: @Sendable (_ emit: (IncrementalPayload) async throws -> Void) async throws -> Void

    init(_ produce: @escaping @Sendable (_ emit: (IncrementalPayload) async throws -> Void) async throws -> Void) {
        self.produce = produce
    }

    /// Runs the deferred work, handing each payload to `body` in order; the last has `hasNext: false`.
    public func forEach(_ body: (IncrementalPayload) async throws -> Void) async throws {
        try await produce(body)
    }
}

extension GatewayService.CacheLookup {
    /// Where the incremental answer of the same request is kept: apart from its whole answer
    /// (a client that did not ask for payloads must never get them), one entry per format.
    func incremental(_ format: IncrementalFormat) -> GatewayService.CacheLookup {
        GatewayService.CacheLookup(
            key: CacheKey(
                document: "# incremental \(format.rawValue)\n" + key.document, operationName: key.operationName,
                variables: key.variables, scope: key.scope),
            policy: policy)
    }
}

extension GatewayService {
    /// A cached incremental answer: the payloads as they were first sent, one per line, replayed
    /// at once. The whole answer is cached and invalidated like any other (by the tags every
    /// payload's execution read); a hit sends its deferred parts right behind the first payload.
    static func answerIncremental(_ hit: CachedResponse, policy: CachePolicy) -> GatewayResponse {
        let lines = hit.body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map(Array.init)
        var response = GatewayResponse(
            outcome: .executed, body: lines.first ?? hit.body, hasErrors: false, cacheControl: policy.headerValue)
        let rest = Array(lines.dropFirst())
        if !rest.isEmpty {
            response.incremental = IncrementalPayloads { emit in
                for (i, body) in rest.enumerated() {
                    try await emit(IncrementalPayload(body: body, hasNext: i < rest.count - 1, hasErrors: false))
                }
            }
        }
        return response
    }

    /// Executes a request whose client accepts payloads (`format`): the initial result now (in an
    /// execution slot, as any query), the deferred work when the payloads are read (in a slot
    /// again: none is held while the first payload travels).
    ///
    /// A mutation's writes all happen before its first payload (a mutation's root cannot defer),
    /// so its invalidation and change events come then, as for a whole answer. A cacheable query
    /// is stored once its last payload went out without an error, with every execution's tags.
    func executeIncremental(
        _ prepared: PreparedRequest, format: IncrementalFormat, lookup: CacheLookup?, writes: Bool
    ) async -> GatewayResponse {
        let request = prepared.request
        let token = lookup.map { _ in options.cache.beginComputation() }
        let context = requestContext(for: request)
        if writes { options.cache.beginWrite() } else { await executionSlots.acquire() }
        let graphQLRequest = GraphQLRequest(
            document: prepared.document, source: prepared.source, operationName: request.operationName,
            variables: prepared.variables, context: context)
        let start = await GatewayTracing.step("graphql.execute") {
            await IncrementalExecution.start(schema: schema, request: graphQLRequest, format: format)
        }
        if !writes { executionSlots.release() }
        let changed = context.changedTags.all
        if !changed.isEmpty { await options.cache.invalidate(tags: changed) }
        if writes {
            options.cache.endWrite()
            if let changes = options.changes {
                await changes.publish(Set(changed.map(DataChange.init(tag:))), activities: context.activities.all)
            }
        }
        let execution: IncrementalExecution
        switch start {
        case .complete(let result):
            // Nothing deferred after all (a null took its place, or every @defer had if: false).
            var response = response(for: result, prepared)
            if let limit = options.maxResponseBytes, response.body.count > limit {
                return responseTooLarge(limit: limit, batched: false)
            }
            if let lookup, let token, !response.hasErrors {
                store(response.body, lookup: lookup, tags: context.readTags.all, token: token)
                response.cacheControl = lookup.policy.headerValue
            }
            return response
        case .incremental(let started):
            execution = started
        }
        let limit = options.maxResponseBytes ?? Int.max
        if execution.initialPayload.count > limit { return responseTooLarge(limit: limit, batched: false) }
        var response = GatewayResponse(
            outcome: .executed, body: execution.initialPayload, hasErrors: execution.initialHasErrors,
            cacheControl: writes ? "no-store" : (lookup?.policy.headerValue ?? "no-store"))
        let cache = options.cache
        let slots = executionSlots
        let first = execution.initialPayload
        let firstHasErrors = execution.initialHasErrors
        response.incremental = IncrementalPayloads { [self] emit in
            await slots.acquire()
            defer { slots.release() }
            var bodies = [first]
            var sent = first.count
            var hasErrors = firstHasErrors
            do {
                try await execution.run { payload in
                    // The payloads together are one answer under MAX_RESPONSE_BYTES: the payload
                    // that would pass it is replaced by one that fails every fragment and stream
                    // still open with RESPONSE_TOO_LARGE and ends the stream; the deferred work
                    // stops (and nothing is kept).
                    sent += payload.body.count
                    if sent > limit {
                        hasErrors = true
                        try await emit(execution.closingPayload(.responseTooLarge(limit: limit)))
                        throw IncrementalAnswerTooLarge(limit: limit)
                    }
                    bodies.append(payload.body)
                    hasErrors = hasErrors || payload.hasErrors
                    try await emit(payload)
                }
            } catch is IncrementalAnswerTooLarge {
                // Ended above, with its closing payload.
            }
            let changedLater = context.changedTags.all.subtracting(changed)
            if !changedLater.isEmpty { await cache.invalidate(tags: changedLater) }
            if let lookup, let token, !hasErrors {
                store(Array(bodies.joined(separator: [UInt8(ascii: "\n")])), lookup: lookup, tags: context.readTags.all, token: token)
            }
        }
        return response
    }

    /// Keeps an answer under `lookup` (off the request's path), unless an invalidation since
    /// `token` may have made it stale (the cache checks).
    private func store(_ body: [UInt8], lookup: CacheLookup, tags: Set<String>, token: CacheToken) {
        let etag = CachedResponse.etag(for: body)
        GatewayTracing.leaf("cache.store") {
            options.cache.storeInBackground(
                lookup.key, body: body, etag: etag, maxAge: lookup.policy.maxAge, tags: tags, token: token)
        }
    }
}

/// The payloads of an incremental answer grew past `MAX_RESPONSE_BYTES` together: thrown out of
/// the execution, after its closing payload, to stop the deferred work still running.
struct IncrementalAnswerTooLarge: Error, CustomStringConvertible {
    let limit: Int
    var description: String { "the incremental answer's payloads grew past \(limit) bytes (MAX_RESPONSE_BYTES); the stream ended" }
}
