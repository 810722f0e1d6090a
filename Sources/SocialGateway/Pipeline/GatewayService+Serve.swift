import Foundation
import SocialDomain

/// The read path's one entry for a JSON request body: the HTTP layer hands the body over once,
/// with the way to decode it, and gets every operation's answer back.
///
/// Why: the body used to come back to the HTTP layer between stages (the repeated-body lookup,
/// then the decode and each operation's execution, then remembering the body), entering the
/// service three times (issue 53). The stages now run here in order:
/// 1. **repeated body**: a body this viewer sent lately, and the cache answered, is answered from
///    the cache without being decoded (``answerRepeated(body:viewer:clientAddress:)``);
/// 2. **decode**: the caller's (GraphQL over HTTP's request parameters; its errors are its own);
/// 3. each operation through ``execute(_:)``'s stages (persisted document, prepare, price, cache
///    key, lookup, rate limit, single flight, execute, store);
/// 4. the body is remembered when the cache answered or kept its one operation.
extension GatewayService {
    /// A decoded body: one operation or a batch.
    public enum DecodedBody: Sendable {
        /// One operation; `hasExtensions` when it carried `extensions` (a persisted-query hash,
        /// which must be looked up each time: such a body is never answered as a repeat).
        case single(GatewayRequest, hasExtensions: Bool)
        case batch([GatewayRequest])
    }

    /// What a body was answered with.
    public struct ServedBody: Sendable {
        /// One answer per operation, in order.
        public var responses: [GatewayResponse]
        /// Whether the body was a batch (its answers go out as a JSON array).
        public var isBatch: Bool
        /// Each operation's name, for logs and traces.
        public var operationNames: [String?]
    }

    /// Answers a JSON body: from the cache when it repeats one this viewer sent, else decoded by
    /// `decode` and executed operation by operation.
    ///
    /// - Parameters:
    ///   - repeats: whether the body may be answered as a repeat (false when the client asked for
    ///     an incremental answer: the repeat knows whole answers only).
    ///   - decode: the body's operations as requests; its error ends the call unchanged.
    public func serve<Failure: Error>(
        jsonBody body: [UInt8], viewer: Viewer, clientAddress: String?, repeats: Bool = true,
        decode: ([UInt8]) throws(Failure) -> DecodedBody
    ) async throws(Failure) -> ServedBody {
        if repeats, let (answer, operationName) = await answerRepeated(body: body, viewer: viewer, clientAddress: clientAddress) {
            return ServedBody(responses: [answer], isBatch: false, operationNames: [operationName])
        }
        switch try decode(body) {
        case .single(let request, let hasExtensions):
            let response = await execute(request)
            if repeats {
                rememberRepeated(
                    body: body, viewer: viewer, operationName: request.operationName, hasExtensions: hasExtensions, response: response)
            }
            return ServedBody(responses: [response], isBatch: false, operationNames: [request.operationName])
        case .batch(let requests):
            var responses: [GatewayResponse] = []
            responses.reserveCapacity(requests.count)
            // One after another: a batch's operations share one budget (``RequestBudget``).
            for request in requests { responses.append(await execute(request)) }
            return ServedBody(responses: responses, isBatch: true, operationNames: requests.map(\.operationName))
        }
    }
}
