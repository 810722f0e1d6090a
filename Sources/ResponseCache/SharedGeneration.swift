import CSharedCounter
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A counter every process using the same cache file sees: bumped by every invalidation,
/// read by every lookup served from memory; and a flag that a failed invalidation raises for
/// all of them.
///
/// It lives in a small file next to the cache (`<cache>-generation`), mapped into memory
/// shared between processes, and changes only through atomic operations. An entry kept in
/// memory (see ``HotEntries``) is served only while the generation is still the one read
/// before that entry was read or computed: an invalidation in any process, committed before
/// it bumps the counter, makes every older in-memory entry unservable at once. Reading it
/// costs one memory load, where checking the SQLite file costs a read transaction and its
/// file locks.
final class SharedGeneration: @unchecked Sendable {
    // @unchecked: `counter` points into a shared mapping; it is only read and written through
    // the atomic functions of CSharedCounter, and unmapped in deinit when no one can use it.
    private let counter: UnsafeMutablePointer<UInt64>
    private let mapping: UnsafeMutableRawPointer
    /// Kept open for the shared `flock` that tells a later process whether it is alone.
    private let descriptor: Int32
    private static let size = 4096

    /// Maps `<cachePath>-generation`, creating it if needed; nil if that fails (the cache then
    /// keeps nothing in memory and every lookup reads the file).
    init?(cachePath: URL) {
        let path = cachePath.path + "-generation"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        // Allocate the page's blocks now (zeros where the file is new, existing bytes kept): a
        // sparse page would be allocated by the first write through the mapping, and a full
        // disk would then kill the process with SIGBUS instead of failing here.
        guard posix_fallocate(descriptor, 0, off_t(Self.size)) == 0,
            let address = mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            address != MAP_FAILED
        else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        mapping = address
        counter = address.bindMemory(to: UInt64.self, capacity: 3)
    }

    deinit {
        munmap(mapping, Self.size)
        close(descriptor)   // also releases this process's flock
    }

    /// Takes this process's shared lock on the file, and tells whether no other process held it
    /// at that moment: a process that finds itself alone may repair what a dead one left.
    ///
    /// The exclusive attempt fails while any other process has the cache open (its shared lock);
    /// the kernel drops the locks of a process that dies, however it dies.
    func joinAndCheckAlone() -> Bool {
        let alone = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        _ = flock(descriptor, LOCK_SH)
        return alone
    }
    /// The current generation.
    var current: UInt64 { shared_counter_load(counter) }

    /// Moves to a new generation, making every entry kept in memory under an older one unservable.
    func advance() {
        _ = shared_counter_increment(counter)
    }

    /// Set when an invalidation in any process could not delete what it should have: every
    /// process then answers lookups with misses until a `removeAll` succeeds.
    var isPoisoned: Bool {
        get { shared_counter_load(counter + 1) != 0 }
        set { shared_counter_store(counter + 1, newValue ? 1 : 0) }
    }

    /// Writes to the backing store that have begun and whose invalidation has not finished, in
    /// every process on this cache. Nonzero when a process opens the cache alone means one died
    /// between a committed write and its invalidation: its entries may be older than the store.
    var pendingWrites: UInt64 { shared_counter_load(counter + 2) }

    func beginWrite() { _ = shared_counter_increment(counter + 2) }

    func endWrite() { _ = shared_counter_decrement(counter + 2) }

    func resetPendingWrites() { shared_counter_store(counter + 2, 0) }
}
