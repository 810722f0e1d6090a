import ResponseCache
import Synchronization

/// Identical cacheable queries that miss at the same time, computed once.
///
/// When a popular answer expires or is invalidated, every request for it misses at once; each
/// computing it (a follower graph costs milliseconds of store reads) made the p99 of a repeated
/// request ten times its p50 (issue #17). The first miss for a key computes; a request for the
/// same key (the same document, variables and viewer scope) that arrives while it runs waits for
/// that answer instead, unless an invalidation has begun since the computation started: the
/// answer might then predate a write the new request must see, so it computes its own.
final class InFlightQueries: Sendable {
    private struct Flight: Sendable {
        let token: CacheToken
        let task: Task<GatewayResponse, Never>
    }

    private let flights = Mutex<[String: Flight]>([:])

    /// The answer for the key `digest`: shared with a computation in flight when one may answer
    /// it, otherwise computed by `compute` (given the token taken before it starts) and shared
    /// with requests that arrive meanwhile.
    func response(
        for digest: String, cache: ResponseCacheStore,
        compute: @escaping @Sendable (CacheToken) async -> GatewayResponse
    ) async -> GatewayResponse {
        let (task, leads) = flights.withLock { flights -> (Task<GatewayResponse, Never>, Bool) in
            if let flight = flights[digest], cache.nothingInvalidated(since: flight.token) {
                return (flight.task, false)
            }
            let token = cache.beginComputation()
            let task = Task { await compute(token) }
            flights[digest] = Flight(token: token, task: task)
            return (task, true)
        }
        let response = await task.value
        if leads {
            flights.withLock { flights in
                if flights[digest]?.task == task { flights[digest] = nil }
            }
        }
        return response
    }
}
