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
    private static let size = 4096

    /// Maps `<cachePath>-generation`, creating it if needed; nil if that fails (the cache then
    /// keeps nothing in memory and every lookup reads the file).
    init?(cachePath: URL) {
        let path = cachePath.path + "-generation"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // Allocate the page's blocks now (zeros where the file is new, existing bytes kept): a
        // sparse page would be allocated by the first write through the mapping, and a full
        // disk would then kill the process with SIGBUS instead of failing here.
        guard posix_fallocate(descriptor, 0, off_t(Self.size)) == 0 else { return nil }
        guard let address = mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            address != MAP_FAILED
        else { return nil }
        mapping = address
        counter = address.bindMemory(to: UInt64.self, capacity: 2)
    }

    deinit {
        munmap(mapping, Self.size)
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
}
