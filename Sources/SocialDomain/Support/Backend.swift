/// Runs a store call and turns anything that is not a ``DomainError`` into
/// `BACKEND_UNAVAILABLE`, so no store detail reaches a client. Cancellation passes through.
///
/// The one place this mapping is made: the use cases, both stores and the gateway's loaders
/// call it, each handing `onFailure` the detail to log where it belongs.
/// - Parameters:
///   - onFailure: receives the original error before it is replaced (for logs, never clients).
///   - call: the store operation.
public func backend<T>(onFailure: (any Error) -> Void = { _ in }, _ call: () async throws -> T) async throws -> T {
    do {
        return try await call()
    } catch let error as DomainError {
        throw error
    } catch is CancellationError {
        throw CancellationError()
    } catch {
        onFailure(error)
        throw DomainError.backendUnavailable
    }
}
