import Foundation
import SocialDomain

extension GatewayService {
    /// The cached answer to a JSON request body this viewer sent lately and the cache answered,
    /// with its operation's name; nil sends the body down the full path (decode, parse, look up).
    ///
    /// The HTTP layer hands over the body's exact bytes before decoding them: on a repeated
    /// request this skips decoding the JSON, finding the document, canonicalizing the variables
    /// and hashing the cache key (issue #17), with the answer the full path would find. As any
    /// cache hit, it spends 1 from the caller's read bucket (``RateLimiter``); when that is empty
    /// the answer is the 429 refusal.
    public func answerRepeated(
        body: [UInt8], viewer: Viewer, clientAddress: String? = nil
    ) async -> (response: GatewayResponse, operationName: String?)? {
        guard let known = repeatedRequests.entry(body: body, viewer: viewer.userId),
              let answer = await cachedAnswer(known.query),
              answer.body.count <= options.maxResponseBytes ?? Int.max
        else { return nil }
        if let refusal = rateLimitRefusal(1, bucket: .query, viewer: viewer, clientAddress: clientAddress) {
            return (refusal, known.operationName)
        }
        demandCounters.recordSpent(1, bucket: .query)
        return (answer, known.operationName)
    }

    /// Remembers where the answer to a single-operation JSON body came from in the cache, so
    /// that ``answerRepeated(body:viewer:)`` finds it next time. A body with `extensions` (a
    /// persisted-query hash) is not remembered: its document must still be found, or refused,
    /// as the protocol says.
    public func rememberRepeated(body: [UInt8], viewer: Viewer, operationName: String?, hasExtensions: Bool, response: GatewayResponse) {
        guard !hasExtensions, let query = response.cacheableQuery else { return }
        repeatedRequests.remember(body: body, viewer: viewer.userId, .init(query: query, operationName: operationName))
    }
}
