import Foundation

/// What the fake remembers of each request, and the faults a test makes it answer with.
extension SupabaseFake {
    /// A request as the fake received it, before any fault or latency.
    public struct RecordedRequest: Sendable {
        public var method: String
        public var path: String
        /// The raw, still percent-encoded query string.
        public var query: String
        /// Header values by lower-cased name.
        public var headers: [String: String]
        public var body: Data
        /// When the whole request had arrived (before any latency or fault).
        public var receivedAt: ContinuousClock.Instant
        /// The body as UTF-8 text, for comparing JSON bodies byte for byte.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
        /// `"<METHOD> <path>"`, e.g. `POST /rest/v1/rpc/follow_pages`: what a round-trip count groups by.
        public var endpoint: String { "\(method) \(path)" }
    }

    /// What the next matching request gets instead of a normal answer.
    public enum Fault: Sendable {
        /// An HTTP answer with this status and body (e.g. 500, 503, Storage's 400s).
        case status(Int, String)
        /// Waits this long, then answers normally (to trip the client's timeout).
        case delay(Duration)
        /// HTTP 200 with a truncated JSON body.
        case malformedJSON
        /// A 502 with an HTML page, as a platform gateway sends.
        case htmlGateway
        /// The real answer, its body sent one byte at a time with this pause between bytes
        /// (each pause under the client's read timeout, the whole far over its request timeout).
        case slowBody(Duration)
        /// The real answer's status and headers and half its body, then the connection is cut.
        case resetMidBody
    }

    /// Every request since the start or the last ``clearRequests()``, in arrival order.
    public var requests: [RecordedRequest] { lock.withLock { recorded } }

    /// Round trips per ``RecordedRequest/endpoint`` since the last ``clearRequests()``: the
    /// Supabase side's figure for "store calls per query" (one request per query level, not per node).
    public var requestCounts: [String: Int] {
        lock.withLock { recorded.reduce(into: [:]) { $0[$1.endpoint, default: 0] += 1 } }
    }

    /// The recorded requests grouped into waves: the ones a client sent together, before it had
    /// the answers of the previous wave. With a fixed ``latency`` L, a request that had to wait
    /// for an earlier answer arrives at least L after it; requests sent together arrive within
    /// moments. So a new wave starts at a request arriving more than L/2 after the current
    /// wave's first one. The number of waves is the sequential round trips a client waited.
    public var waves: [[RecordedRequest]] {
        let (requests, gap) = lock.withLock { (recorded, fixedLatency / 2) }
        var waves: [[RecordedRequest]] = []
        for request in requests.sorted(by: { $0.receivedAt < $1.receivedAt }) {
            if let start = waves.last?.first?.receivedAt, request.receivedAt - start <= gap {
                waves[waves.count - 1].append(request)
            } else {
                waves.append([request])
            }
        }
        return waves
    }

    /// Forgets the recorded requests (e.g. the gateway's start-up check) before the part a test measures.
    public func clearRequests() { lock.withLock { recorded.removeAll() } }

    /// The next `times` requests whose path starts with `pathPrefix` (any if nil) get `fault`.
    public func inject(_ fault: Fault, pathPrefix: String? = nil, times: Int = 1) {
        lock.withLock { faults.append((pathPrefix, fault, times)) }
    }
}
