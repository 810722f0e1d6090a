import Foundation

/// The port operations the store counts, one per method of the three ports.
public enum StoreOperation: String, Sendable, CaseIterable {
    case profilesByID, profilesByHandle, searchProfiles, updateProfile
    case followPages, activeFollows, changeFollow
    case putAvatar, deleteAvatar
}

/// Thread-safe call and statement counters.
///
/// A lock rather than `Synchronization.Mutex`: the package still declares macOS 14, where
/// `Mutex` is unavailable.
final class StoreCounters: @unchecked Sendable {
    private let lock = NSLock()
    private var callCounts: [String: Int] = [:]
    private var statementCount = 0

    func countCall(_ operation: StoreOperation) {
        lock.withLock { callCounts[operation.rawValue, default: 0] += 1 }
    }

    /// Counts a traced statement unless it is transaction control, a pragma, a trigger step or
    /// GRDB's format check when it opens a connection (`SELECT * FROM sqlite_master LIMIT 1`).
    func countStatement(_ sql: String) {
        if sql.contains("sqlite_master") { return }
        let head = sql.prefix(10).uppercased()
        for skipped in ["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "PRAGMA", "--"] where head.hasPrefix(skipped) {
            return
        }
        lock.withLock { statementCount += 1 }
    }

    func calls() -> [String: Int] { lock.withLock { callCounts } }
    func statements() -> Int { lock.withLock { statementCount } }
    func reset() {
        lock.withLock {
            callCounts = [:]
            statementCount = 0
        }
    }
}
