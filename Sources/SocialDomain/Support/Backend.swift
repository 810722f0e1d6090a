/// Runs a store call and turns anything that is not a ``DomainError`` into
/// `BACKEND_UNAVAILABLE`, so no store detail reaches a client. Cancellation passes through.
func backend<T>(_ call: () async throws -> T) async throws -> T {
    do {
        return try await call()
    } catch let error as DomainError {
        throw error
    } catch is CancellationError {
        throw CancellationError()
    } catch {
        throw DomainError.backendUnavailable
    }
}
