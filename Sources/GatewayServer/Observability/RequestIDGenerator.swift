import Foundation
import Synchronization

/// Request ids for requests that bring none: UUID-shaped, unique, and cheap.
///
/// Why not `UUID()` per request: it reads the kernel's random source each time, and that was 6%
/// of the server's CPU on cached profile cards (issue #17, `perf record`). An id only has to be
/// unique and findable in logs, not unpredictable: a random base drawn once per process, plus a
/// counter in its low 64 bits, gives ids unique within the process and, with overwhelming
/// likelihood, across replicas. They keep the version 4 and variant bits, so log tools that
/// expect a UUID accept them.
final class RequestIDGenerator: Sendable {
    private let base: uuid_t
    private let counter = Atomic<UInt64>(0)

    init(base: UUID = UUID()) {
        self.base = base.uuid
    }

    /// The next id, in lower case.
    func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var bytes = base
        withUnsafeMutableBytes(of: &bytes) { raw in
            // Bytes 8-15 hold the variant bits (the top two of byte 8): the count goes in the 62
            // bits below them, added to the base's so that ids do not start at zero.
            var low: UInt64 = 0
            for i in 8..<16 { low = low << 8 | UInt64(raw[i]) }
            let variant = low & 0xC000_0000_0000_0000
            low = variant | ((low &+ count) & 0x3FFF_FFFF_FFFF_FFFF)
            for i in (8..<16).reversed() {
                raw[i] = UInt8(truncatingIfNeeded: low)
                low >>= 8
            }
        }
        return UUID(uuid: bytes).lowercased
    }
}
