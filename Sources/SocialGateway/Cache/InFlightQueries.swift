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

    /// What a request that missed does next.
    private enum Next {
        case join(Task<GatewayResponse, Never>)
        case lead(Task<GatewayResponse, Never>)
        case answered(GatewayResponse)
    }

    /// The answer for the key `digest`: shared with a computation in flight when one may answer
    /// it, else the answer a computation that just landed left in memory (`landed`), otherwise
    /// computed by `compute` (given the token taken before it starts) and shared with requests
    /// that arrive meanwhile.
    ///
    /// `landed` closes a gap issue 38 measured (32 identical misses ran twice): a request whose
    /// cache lookup missed while the leader computed could reach this point after the leader
    /// had landed and let go of the key, its answer in memory but not yet in the file. A leader
    /// keeps its answer in memory before it lets go, so checking memory under the same lock as
    /// the key leaves no gap.
    func response(
        for digest: String, cache: any ResponseCaching, landed: @escaping @Sendable () -> GatewayResponse? = { nil },
        compute: @escaping @Sendable (CacheToken) async -> GatewayResponse
    ) async -> GatewayResponse {
        let next = flights.withLock { flights -> Next in
            if let flight = flights[digest], cache.nothingInvalidated(since: flight.token) {
                return .join(flight.task)
            }
            if let answer = landed() { return .answered(answer) }
            let token = cache.beginComputation()
            let task = Task { await compute(token) }
            flights[digest] = Flight(token: token, task: task)
            return .lead(task)
        }
        let task: Task<GatewayResponse, Never>, leads: Bool
        switch next {
        case .answered(let answer): return answer
        case .join(let flight): (task, leads) = (flight, false)
        case .lead(let flight): (task, leads) = (flight, true)
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
