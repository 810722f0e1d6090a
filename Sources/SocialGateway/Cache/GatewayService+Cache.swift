import Foundation
import GraphQLEngine
import GraphQLLanguage
import SocialDomain

extension GatewayService {
    /// Where a query's answer would be in the cache, and for how long it may stay.
    struct CacheLookup: Sendable {
        let key: CacheKey
        let policy: CachePolicy
    }

    /// The cached answer of `query` as ``execute(_:)`` returns a hit, or nil (not counted as a
    /// miss: the caller then runs ``execute(_:)``, whose lookup counts).
    public func cachedAnswer(_ query: CacheableQuery) async -> GatewayResponse? {
        if let token = query.relationToken, !options.cache.nothingInvalidated(since: token) { return nil }
        guard let hit = await options.cache.lookup(query.lookup.key, countsMiss: false) else { return nil }
        return Self.answer(hit, policy: query.lookup.policy)
    }

    /// A cache hit as an answer: its body, validator and stored deflated copy.
    static func answer(_ hit: CachedResponse, policy: CachePolicy) -> GatewayResponse {
        var response = GatewayResponse(
            outcome: .executed, body: hit.body, hasErrors: false, cacheControl: policy.headerValue, etag: hit.etag)
        response.deflatedBody = hit.deflated
        return response
    }

    /// The cache key and policy of a query, or nil when its answer may not be cached.
    ///
    /// Scope: answers for anonymous requests are shared (anonymous viewers see only
    /// public data, and the same of it). A signed-in viewer's answers are their own,
    /// even for PUBLIC-hinted queries: `profile(handle:)` shows its owner a private
    /// profile that everyone else sees as null.
    func cacheLookup(_ prepared: PreparedDocument, operation: OperationDefinition, request: GatewayRequest) -> CacheLookup? {
        guard let printed = prepared.printed, var policy = prepared.queryPolicies[operation.name?.value], policy.maxAge > 0
        else { return nil }
        let viewer = request.viewer
        let scope: CacheScope = viewer.userId.map { .viewer($0.lowercased) } ?? .shared
        if viewer.userId != nil { policy.isPrivate = true }
        let key = CacheKey(
            document: printed, operationName: request.operationName,
            variables: canonicalJSON(.object(request.variables)), scope: scope)
        return CacheLookup(key: key, policy: policy)
    }

    /// A query the cache could not answer: executes, and stores the response with the
    /// tags it read; when the store is unavailable, an expired entry within the grace
    /// window is served with a warning.
    ///
    /// Identical misses at the same time are computed once (``InFlightQueries``). A shared card
    /// (``sharedCardLookup(_:operation:request:)``) is stored under the token taken before its
    /// relation was read, with the relation's tags beside those its execution read.
    /// With `keeps` false the answer is computed the same way but not stored (``AskedBefore``).
    func executeCached(
        _ prepared: PreparedRequest, _ lookup: CacheLookup, shared: SharedCardLookup? = nil, keeps: Bool = true
    ) async -> GatewayResponse {
        let cache = options.cache
        let landed: @Sendable () -> GatewayResponse? = {
            cache.memoryHit(lookup.key).map { Self.answer($0, policy: lookup.policy) }
        }
        return await inFlight.response(for: lookup.key.digest, cache: cache, landed: landed) { token in
            await self.executionSlots.withSlot {
                await self.computeCached(
                    prepared, lookup, token: shared?.token ?? token, extraTags: shared?.relationTags ?? [], keeps: keeps)
            }
        }
    }

    /// Executes a query the cache could not answer, under `token` taken before.
    private func computeCached(
        _ prepared: PreparedRequest, _ lookup: CacheLookup, token: CacheToken, extraTags: Set<String>, keeps: Bool
    ) async -> GatewayResponse {
        let key = lookup.key
        let policy = lookup.policy
        let (response, context) = await run(prepared, sharedAnswer: true, recordsReads: keeps)
        if !response.hasErrors, !keeps {
            var fresh = response
            fresh.cacheControl = policy.headerValue
            return fresh
        }
        if !response.hasErrors {
            // Off the request's path: the client has its answer; the entry follows (or, when the
            // cache's writer is behind, is not kept).
            let etag = CachedResponse.etag(for: response.body)
            GatewayTracing.leaf("cache.store") {
                options.cache.storeInBackground(
                    key, body: response.body, etag: etag, maxAge: policy.maxAge, tags: context.readTags.all.union(extraTags),
                    token: token)
            }
            var fresh = response
            fresh.cacheControl = policy.headerValue
            fresh.etag = etag
            return fresh
        }
        if response.errorCodes.contains(DomainErrorCode.backendUnavailable.rawValue),
            let stale = await options.cache.lookup(key, allowStale: true) {
            return GatewayResponse(
                outcome: .executed, body: Self.addingStaleWarning(to: stale.body, storedAt: stale.storedAt), hasErrors: false,
                cacheControl: "no-store", etag: nil)
        }
        return response
    }

    /// The cached body with `extensions.warnings` saying it is stale, and since when.
    ///
    /// Only answers without errors are cached, and the executor writes them as `{"data":...}`
    /// with nothing after `data`: the warning is spliced in before the closing brace, without
    /// parsing the body again.
    static func addingStaleWarning(to body: [UInt8], storedAt: Date) -> [UInt8] {
        guard body.starts(with: Array(#"{"data":"#.utf8)), body.last == UInt8(ascii: "}") else { return body }
        let warning: JSONValue = [
            "warnings": [
                [
                    "code": "STALE_RESPONSE",
                    "message": .string(
                        "The backend is unavailable; this response was cached at \(RFC3339.format(storedAt)) and may be out of date."),
                ]
            ]
        ]
        var writer = JSONWriter()
        writer.write(warning)
        var spliced = Array(body.dropLast())
        spliced.append(contentsOf: #","extensions":"#.utf8)
        spliced.append(contentsOf: writer.bytes)
        spliced.append(UInt8(ascii: "}"))
        return spliced
    }

    /// The document a request runs, and the hash to register it under once it has validated.
    struct ResolvedDocument {
        let text: String
        /// Set when the client sent a query with its APQ hash: stored after validation only.
        let registerAs: String?
    }

    /// Which document a request runs: a trusted document by id, an automatic persisted query
    /// (a hash alone is looked up; a hash with its query is checked, and registered by the
    /// caller once the document has parsed and validated), or the query text.
    ///
    /// In trusted-documents-only mode nothing else runs: an unknown id or a text outside the
    /// manifest is refused here, before any parsing.
    func resolvePersistedQuery(_ request: GatewayRequest) async -> Result<ResolvedDocument, PersistedQueryFailure> {
        let hash = request.extensions?["persistedQuery"]?.objectValue?["sha256Hash"]?.stringValue
        if let trusted = options.trustedDocuments {
            if let hash, let text = trusted.document(id: hash) {
                if let query = request.query, query != text { return .failure(.hashMismatch) }
                return .success(ResolvedDocument(text: text, registerAs: nil))
            }
            if options.trustedDocumentsOnly {
                if hash == nil, let query = request.query, trusted.contains(text: query) {
                    return .success(ResolvedDocument(text: query, registerAs: nil))
                }
                return .failure(.notInList)
            }
        }
        guard let hash else {
            guard let query = request.query else {
                return .failure(PersistedQueryFailure(error: GraphQLError("Must provide a query string.")))
            }
            return .success(ResolvedDocument(text: query, registerAs: nil))
        }
        guard options.cache.isEnabled else {
            return .failure(
                PersistedQueryFailure(
                    error: GraphQLError("PersistedQueryNotSupported", extensions: ["code": "PERSISTED_QUERY_NOT_SUPPORTED"])))
        }
        if let query = request.query {
            guard DocumentHash.isWellFormed(hash), DocumentHash.of(query) == hash.lowercased() else {
                return .failure(.hashMismatch)
            }
            return .success(ResolvedDocument(text: query, registerAs: hash.lowercased()))
        }
        guard let query = await options.cache.persistedQuery(sha256Hash: hash) else {
            return .failure(PersistedQueryFailure(error: GraphQLError("PersistedQueryNotFound", extensions: ["code": "PERSISTED_QUERY_NOT_FOUND"])))
        }
        return .success(ResolvedDocument(text: query, registerAs: nil))
    }

    struct PersistedQueryFailure: Error {
        let error: GraphQLError

        static let hashMismatch = PersistedQueryFailure(
            error: GraphQLError("provided sha does not match query", extensions: ["code": "BAD_USER_INPUT"]))
        static let notInList = PersistedQueryFailure(
            error: GraphQLError(
                "This server runs trusted documents only, and this document is not one of them: send "
                    + "extensions.persistedQuery.sha256Hash of a document in its manifest.",
                extensions: ["code": "PERSISTED_QUERY_NOT_IN_LIST"]))
    }
}

/// A query's place in the response cache, as ``GatewayService/execute(_:)`` looked it up
/// (``GatewayResponse/cacheableQuery``).
public struct CacheableQuery: Sendable {
    let lookup: GatewayService.CacheLookup
    /// For a shared card, the token taken before the viewer's relation was read: the key is
    /// still this viewer's only while nothing at all was invalidated since (a relation changes
    /// only with a write, and every write invalidates something).
    var relationToken: CacheToken? = nil
}
