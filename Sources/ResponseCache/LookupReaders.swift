import Foundation
import GRDB

/// Read-only connections to the cache file that serve lookups on the caller's own thread.
///
/// Why: an async GRDB read hops four times between threads (to the pool's semaphore queue and
/// back, to the reader's queue and back). A lookup that reaches the file (every miss, and every
/// hit of an entry no longer kept in memory) paid those hops for a point read of microseconds:
/// in the kernel's thread switching, more CPU than the read. A synchronous read runs in place,
/// since `DispatchQueue.sync` runs its block on the calling thread when the reader is idle.
///
/// Why a pool of its own: a synchronous read may block its thread on the pool's reader
/// semaphore. On a pool that async reads also use, the readers they hold come back only when a
/// cooperative thread resumes them, so with every cooperative thread blocked there, nothing comes
/// back (the deadlock that made an earlier synchronous lookup be reverted). These connections
/// are only ever taken and given back inside one synchronous call that awaits nothing, so a
/// blocked lookup always waits for a statement running on another thread, which ends.
struct LookupReaders: Sendable {
    private let pool: DatabasePool

    /// Opens read-only connections to the cache file at `path` (created and migrated already).
    /// - Parameter configuration: the store's configuration (its busy timeout applies here too).
    init(path: String, configuration: Configuration) throws {
        var configuration = configuration
        configuration.readonly = true
        configuration.label = "ResponseCache.lookups"
        // At most one reader per thread that can run a lookup at once.
        configuration.maximumReaderCount = max(2, ProcessInfo.processInfo.activeProcessorCount)
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    /// Runs `body` on a reader, on this thread, outside any transaction (`unsafeRead`: one SELECT
    /// in autocommit mode reads one snapshot). `body` must be short and must not reenter.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.unsafeRead(body)
    }
}
