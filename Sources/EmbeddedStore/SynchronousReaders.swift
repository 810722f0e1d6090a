import Foundation
import GRDB

/// Read-only connections to the store's file that run a port's reads on the calling thread.
///
/// Why: an async GRDB read hops four times between threads (to the pool's semaphore queue and
/// back, to the reader's queue and back). A random profile card makes three store reads, a
/// follower graph three, and those hops, in the kernel's thread switching, cost more CPU than
/// most of the reads. A synchronous read runs in place: `DispatchQueue.sync` runs its block on
/// the calling thread when the reader is idle.
///
/// Why a pool of its own: a synchronous read may block its thread on the pool's reader
/// semaphore. On a pool that async reads also use, the readers they hold come back only when a
/// cooperative thread resumes them, so with every cooperative thread blocked there, nothing comes
/// back. These connections are only taken and given back inside one synchronous call that
/// awaits nothing, so a blocked read always waits for a statement running on another thread.
///
/// The cost: a read occupies a cooperative thread while SQLite runs it (the largest, a follower
/// graph's 50 follow pages, about a millisecond), where an async read left the thread to other
/// tasks. The execution slots (two per core) bound how many queries read at once. Measured with
/// writes among browsing clients (`scripts/load-test`'s toggle- and update-under-browse), these
/// reads cost the writes nothing; the same done for the response cache's lookups made them wait
/// 2.5x longer and was reverted (`Sources/ResponseCache/README.md`).
struct SynchronousReaders: Sendable {
    private let pool: DatabasePool

    /// Opens read-only connections to the database at `path` (created and migrated already).
    /// - Parameter configuration: the store's configuration (memory map, busy timeout, tracing).
    init(path: String, configuration: Configuration) throws {
        var configuration = configuration
        configuration.readonly = true
        configuration.label = "EmbeddedStore.reads"
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    /// Runs `body` in a read transaction on this thread. `body` must not reenter the store.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }
}
