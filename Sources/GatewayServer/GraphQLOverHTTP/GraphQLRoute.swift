import Foundation
import GraphQLEngine
import HTTPTypes
import Hummingbird
import SocialDomain
import SocialGateway

/// `GET` and `POST /graphql`: GraphQL over HTTP on top of ``SocialGateway/GatewayService``.
///
/// The order of checks is the order a client can fix them in: `Accept` (406), CSRF preflight
/// for a multipart POST (400), the bearer token (401), `Content-Type` (415), the body and its
/// limits (413, 400, 422), then GraphQL itself. Everything before the token reads headers only.
/// A multipart upload is refused before a byte of its body is read when it comes without a
/// signed-in viewer (401: only signed-in users upload) or when ``UploadSlots`` are all taken
/// (503 with `Retry-After`). A request that waited too long to start is refused first of all
/// (``QueueWaitGate``: 503 with `Retry-After`). Statuses follow GraphQL over HTTP with
/// `application/graphql-response+json` (200 when execution ran, 400 for a document that does not
/// parse, 422 for one that does not validate or run, 405 + `Allow: POST` for a mutation over GET);
/// `application/json` clients get 200 for request errors too. A JSON array body runs a batch,
/// one operation after the other (so mutations keep their order), and answers an array.
///
/// A GET needs no CSRF preflight header: the gateway authenticates by the `Authorization` header
/// only, never by cookies, so a GET a browser sends cross-site on its own carries no one's
/// credentials, and only queries run over GET. Should a cookie ever authenticate, GETs (and
/// every simple POST) must require ``requirePreflight(_:)`` again.
struct GraphQLRoute: Sendable {
    let service: GatewayService
    let authenticator: JWTAuthenticator
    let metrics: GatewayMetrics
    let maxBodyBytes: Int
    let maxBatchSize: Int
    /// Most values in one JSON document of a request (``GatewayHTTPError/tooManyJSONValues(limit:)``).
    let maxJSONValues: Int
    let uploadLimits: MultipartUpload.Limits
    let uploadSlots: UploadSlots
    /// Proxies whose `X-Forwarded-For` names the client (``TrustedProxies``).
    var trustedProxies = TrustedProxies.none
    /// Answers requests that ask for a stream (server-sent events, multipart subscriptions).
    var streaming: StreamingResponder?
    /// Refuses requests that waited too long to start (load shedding); nil: none refused.
    var queueWait: QueueWaitGate?
    /// Compresses the answers of clients that accept it; every answer but a stream's passes it.
    var compression = ResponseCompression(minimumBytes: ServerConfiguration.defaultCompressionMinBytes)

    static let preflightHeaders: [HeaderName] = [.graphQLPreflight, .apolloRequirePreflight, .apolloOperationName]

    func get(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        try queueWait?.admit(request)
        if let streaming, let format = StreamFormat.negotiate(accept: request.headers[.accept]) {
            let viewer = try await authenticator.viewer(authorization: request.headers[.authorization])
            let parameters = try GraphQLHTTPRequest.decodeQueryString(request.uri.query, maxJSONValues: maxJSONValues)
            context.annotations.addOperation(parameters.operationName)
            return await streaming.respond(format, gatewayRequest(parameters, viewer: viewer, readOnly: true, request, context))
        }
        return try await measured(context) {
            let incremental = IncrementalDelivery.format(accept: request.headers[.accept])
            let mediaType = try Self.mediaType(request, incremental: incremental)
            let viewer = try await authenticator.viewer(authorization: request.headers[.authorization])
            let parameters = try GraphQLHTTPRequest.decodeQueryString(request.uri.query, maxJSONValues: maxJSONValues)
            let result = await run(
                parameters, viewer: viewer, files: [:], fileMap: [:], readOnly: true, budget: RequestBudget(), request: request,
                context: context, incremental: incremental)
            if let etag = result.etag, let condition = request.headers[.ifNoneMatch] {
                // Compared with the tag of the representation this request would get (RFC 9110
                // §13.1.2), which depends on its Accept-Encoding (``ResponseCompression``).
                let accept = AcceptEncoding(request.headers[.acceptEncoding])
                let coding = compression.coding(for: accept, bodyCount: result.body.count, method: request.method)
                let tag = ResponseCompression.etag(etag, coding: coding)
                if Self.matches(condition, tag) {
                    var headers: HTTPFields = [.eTag: tag]
                    headers[.cacheControl] = result.cacheControl
                    headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
                    return (Response(status: .notModified, headers: headers), [result])
                }
            }
            return (single(result, mediaType: mediaType, request: request), [result])
        }
    }

    func post(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        try queueWait?.admit(request)
        if let streaming, let format = StreamFormat.negotiate(accept: request.headers[.accept]) {
            let contentType = ContentType(request.headers[.contentType])
            if contentType?.isSimpleForm ?? true { try Self.requirePreflight(request) }
            let viewer = try await authenticator.viewer(authorization: request.headers[.authorization])
            guard let contentType, contentType.isJSON else {
                throw GatewayHTTPError.unsupportedMediaType(request.headers[.contentType])
            }
            let body = try await Self.collect(request, limit: maxBodyBytes)
            guard case .single(let parameters) = try GraphQLHTTPRequest.decodeJSON(
                body, maxBatchSize: maxBatchSize, maxJSONValues: maxJSONValues)
            else {
                throw GatewayHTTPError.invalidParameters("A stream answers one operation; send a batch without Accept: \(format.contentType).")
            }
            context.annotations.addOperation(parameters.operationName)
            var streamed = gatewayRequest(parameters, viewer: viewer, readOnly: false, request, context)
            // Over server-sent events, a query with @defer or @stream answers in payloads, one
            // `next` event each (v0.2, graphql-js 17's format, as graphql-sse sends it).
            if format == .serverSentEvents { streamed.incremental = .v0_2 }
            return await streaming.respond(format, streamed)
        }
        return try await measured(context) {
            let incremental = IncrementalDelivery.format(accept: request.headers[.accept])
            let mediaType = try Self.mediaType(request, incremental: incremental)
            let contentType = ContentType(request.headers[.contentType])
            // The one simple type read here; text/plain and form-urlencoded are a 415 below.
            if contentType?.essence == "multipart/form-data" { try Self.requirePreflight(request) }
            let viewer = try await authenticator.viewer(authorization: request.headers[.authorization])
            guard let contentType else { throw GatewayHTTPError.unsupportedMediaType(nil) }
            if contentType.isJSON {
                let body = try await Self.collect(request, limit: maxBodyBytes)
                let budget = RequestBudget()
                // The service's one entry for a body: repeated body, decode, each operation's stages.
                let served = try await service.serve(
                    jsonBody: body, viewer: viewer, clientAddress: clientAddress(request, context), repeats: incremental == nil
                ) { (bytes: [UInt8]) throws(GatewayHTTPError) -> GatewayService.DecodedBody in
                    switch try GraphQLHTTPRequest.decodeJSON(bytes, maxBatchSize: maxBatchSize, maxJSONValues: maxJSONValues) {
                    case .single(let parameters):
                        var single = gatewayRequest(parameters, viewer: viewer, readOnly: false, request, context, budget: budget)
                        single.incremental = incremental
                        return .single(single, hasExtensions: parameters.extensions != nil)
                    case .batch(let list):
                        return .batch(list.map { gatewayRequest($0, viewer: viewer, readOnly: false, request, context, budget: budget) })
                    }
                }
                for name in served.operationNames { context.annotations.addOperation(name) }
                if served.isBatch { return (batch(served.responses, mediaType: mediaType, request: request), served.responses) }
                return (single(served.responses[0], mediaType: mediaType, request: request), served.responses)
            }
            guard contentType.essence == "multipart/form-data" else {
                throw GatewayHTTPError.unsupportedMediaType(request.headers[.contentType])
            }
            guard viewer.userId != nil else {
                throw GatewayHTTPError.unauthenticated(
                    "Uploads need a signed-in user: send the request with \"Authorization: Bearer <token>\".")
            }
            guard uploadSlots.tryAcquire() else { throw GatewayHTTPError.tooManyUploads(limit: uploadSlots.limit) }
            defer { uploadSlots.release() }
            let upload = try await GatewayTracing.step("upload.read") {
                try await MultipartUpload.read(
                    request.body, boundary: contentType.parameters["boundary"] ?? "", limits: uploadLimits)
            }
            return try await respond(upload.request, mediaType: mediaType, viewer: viewer, request: request, context: context) { index in
                (upload.files[index], upload.fileMaps[index])
            }
        }
    }

    /// Runs a single request or a batch and builds the response. The operations of a batch share
    /// one ``RequestBudget``: the request's one password hash, and each of its files once.
    func respond(
        _ decoded: GraphQLHTTPRequest, mediaType: MediaType, viewer: Viewer, request: Request, context: GatewayRequestContext,
        incremental: IncrementalFormat? = nil, files: (Int) -> ([String: UploadedFile], [String: [String]])
    ) async throws -> (Response, [GatewayResponse]) {
        let budget = RequestBudget()
        switch decoded {
        case .single(let parameters):
            let (uploaded, map) = files(0)
            let result = await run(
                parameters, viewer: viewer, files: uploaded, fileMap: map, readOnly: false, budget: budget, request: request,
                context: context, incremental: incremental)
            return (single(result, mediaType: mediaType, request: request), [result])
        case .batch(let list):
            var results: [GatewayResponse] = []
            results.reserveCapacity(list.count)
            for (index, parameters) in list.enumerated() {
                let (uploaded, map) = files(index)
                results.append(await run(
                    parameters, viewer: viewer, files: uploaded, fileMap: map, readOnly: false, budget: budget, request: request,
                    context: context))
            }
            return (batch(results, mediaType: mediaType, request: request), results)
        }
    }

    /// The HTTP response for a batch: its answers as one JSON array, 200 whatever each says.
    func batch(_ results: [GatewayResponse], mediaType: MediaType, request: Request) -> Response {
        var body: [UInt8] = [UInt8(ascii: "[")]
        body.reserveCapacity(results.reduce(2) { $0 + $1.body.count + 1 })
        for (index, result) in results.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: result.body)
        }
        body.append(UInt8(ascii: "]"))
        return compression.response(
            status: .ok, headers: [.contentType: mediaType.headerValue], body: body, stored: nil,
            accept: AcceptEncoding(request.headers[.acceptEncoding]), method: request.method)
    }

    func gatewayRequest(
        _ parameters: GraphQLParameters, viewer: Viewer, readOnly: Bool, _ request: Request, _ context: GatewayRequestContext,
        budget: RequestBudget = RequestBudget()
    ) -> GatewayRequest {
        GatewayRequest(
            query: parameters.query, operationName: parameters.operationName, variables: parameters.variables,
            extensions: parameters.extensions, viewer: viewer, isReadOnly: readOnly, clientAddress: clientAddress(request, context),
            budget: budget)
    }

    func run(
        _ parameters: GraphQLParameters, viewer: Viewer, files: [String: UploadedFile], fileMap: [String: [String]],
        readOnly: Bool, budget: RequestBudget, request: Request, context: GatewayRequestContext,
        incremental: IncrementalFormat? = nil
    ) async -> GatewayResponse {
        context.annotations.addOperation(parameters.operationName)
        var gatewayRequest = GatewayRequest(
            query: parameters.query, operationName: parameters.operationName, variables: parameters.variables,
            extensions: parameters.extensions, viewer: viewer, files: files, fileMap: fileMap, isReadOnly: readOnly,
            clientAddress: clientAddress(request, context), budget: budget)
        gatewayRequest.incremental = incremental
        return await service.execute(gatewayRequest)
    }

    /// The media type of a whole answer. A client that asked for an incremental one may not list
    /// JSON (`Accept: multipart/mixed;deferSpec=20220824` alone): a whole answer is still JSON.
    static func mediaType(_ request: Request, incremental: IncrementalFormat?) throws(GatewayHTTPError) -> MediaType {
        guard incremental != nil else { return try MediaType.negotiate(accept: request.headers[.accept]) }
        return (try? MediaType.negotiate(accept: request.headers[.accept])) ?? .json
    }

    /// The client's address for per-address limits: the TCP peer, or, when the peer is a trusted
    /// proxy, the address it forwarded for.
    func clientAddress(_ request: Request, _ context: GatewayRequestContext) -> String? {
        trustedProxies.clientAddress(peer: context.clientAddress, forwardedFor: request.headers[.xForwardedFor])
    }

    /// The HTTP response for one operation (GraphQL over HTTP, "Status Codes"), compressed when
    /// the request accepts it (``ResponseCompression``).
    func single(_ result: GatewayResponse, mediaType: MediaType, request: Request) -> Response {
        if result.incremental != nil, let format = IncrementalDelivery.format(accept: request.headers[.accept]) {
            return IncrementalDelivery.response(result, format: format)
        }
        var headers: HTTPFields = [.contentType: mediaType.headerValue]
        let status: HTTPResponse.Status
        switch result.outcome {
        case .executed where result.errorCodes.contains(DomainErrorCode.serverBusy.rawValue):
            // The server could not take the work now (its password-hashing queue is full): 503
            // with the wait under either media type, since nothing the client sent was wrong.
            status = .serviceUnavailable
            headers[.retryAfter] = String(result.retryAfterSeconds ?? 1)
            if let cacheControl = result.cacheControl { headers[.cacheControl] = cacheControl }
        case .executed where mediaType == .graphQLResponse && result.errorCodes.contains(DomainErrorCode.tooManyRequests.rawValue):
            // A rate limit is the client's to back off from: 429 with the wait, where the media
            // type lets the status speak (application/json keeps 200, as for any field error).
            status = .tooManyRequests
            if let seconds = result.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
            if let cacheControl = result.cacheControl { headers[.cacheControl] = cacheControl }
        case .executed: status = .ok
        case .requestError where result.rateLimit != nil:
            // A rate limit refused the request before it ran: 429 under either media type, with the
            // wait and the limit (draft-ietf-httpapi-ratelimit-headers), as the HTTP layer's own
            // limits answer.
            status = .tooManyRequests
            if let decision = result.rateLimit {
                headers[.retryAfter] = String(decision.retryAfterSeconds)
                headers[.rateLimitPolicy] = decision.policyHeader
                headers[.rateLimit] = decision.stateHeader
            }
        case .requestError: status = mediaType == .graphQLResponse ? result.requestErrorStatus : .ok
        case .mutationNotAllowed:
            status = .methodNotAllowed
            headers[.allow] = "POST"
        }
        if status == .ok, let cacheControl = result.cacheControl { headers[.cacheControl] = cacheControl }
        return compression.response(
            status: status, headers: headers, etag: status == .ok ? result.etag : nil, body: result.body, stored: result.deflatedBody,
            accept: AcceptEncoding(request.headers[.acceptEncoding]), method: request.method)
    }

    /// Times a request and counts its operations by outcome.
    func measured(
        _ context: GatewayRequestContext, _ body: () async throws -> (Response, [GatewayResponse])
    ) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let (response, results) = try await body()
            let elapsed = ContinuousClock.now - start
            for result in results {
                let outcome: GatewayMetrics.Outcome =
                    switch result.outcome {
                    case .executed: result.hasErrors ? .fieldErrors : .ok
                    case .requestError, .mutationNotAllowed: .requestError
                    }
                metrics.record(outcome, duration: elapsed)
            }
            return response
        } catch {
            metrics.record(.httpError, duration: ContinuousClock.now - start)
            throw error
        }
    }

    /// The multipart spec's CSRF advice: a request a browser may send cross-site without a CORS
    /// preflight (no Content-Type, or a simple form type) must carry a preflight header. Asked
    /// of multipart POSTs and of POSTs that ask for a stream; not of GETs (see the type's notes).
    static func requirePreflight(_ request: Request) throws(GatewayHTTPError) {
        if let type = ContentType(request.headers[.contentType]), !type.isSimpleForm { return }
        for name in preflightHeaders {
            if let value = request.headers[name], !value.trimmingSpaces.isEmpty { return }
        }
        throw .csrfPreflightRequired
    }

    /// Reads a whole body up to `limit` bytes; a `Content-Length` over the limit is refused unread,
    /// and a body whose connection ends before it does is a 400 (logged as such, not as a fault).
    static func collect(_ request: Request, limit: Int) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw GatewayHTTPError.bodyTooLarge(limit: limit)
        }
        var bytes: [UInt8] = []
        do {
            for try await chunk in request.body {
                guard bytes.count + chunk.readableBytes <= limit else { throw GatewayHTTPError.bodyTooLarge(limit: limit) }
                bytes.append(contentsOf: chunk.readableBytesView)
            }
        } catch let error as GatewayHTTPError {
            throw error
        } catch {
            // The connection ended mid-body: the client went away, or was cut for sending too slowly.
            throw GatewayHTTPError.malformedRequest("The request body ended before it was complete.")
        }
        return bytes
    }

    /// `If-None-Match` against a strong ETag (`*` or a list; weak prefixes compare weakly).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingSpaces
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
