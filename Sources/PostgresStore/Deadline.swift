/// The operation's result, or ``DeadlinePassed`` once `limit` has passed (the operation is
/// cancelled then). Keeps a call from waiting on a database that is down longer than the
/// statement timeout a slow statement would get.
func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw DeadlinePassed(limit: limit)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlinePassed(limit: limit) }
        return first
    }
}

/// A database call that took longer than its deadline.
struct DeadlinePassed: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "no answer within \(limit)" }
}
