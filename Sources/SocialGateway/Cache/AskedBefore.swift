import Synchronization

/// The per-viewer cache keys asked lately, so that an answer only one viewer can read is kept
/// (and looked for) from the second time that viewer asks it, not the first.
///
/// Why: with many viewers each reading many profiles, nearly every signed-in answer was stored
/// and never read again: storing it was about 40% of a miss (issue 41), and looking for it a
/// read of the cache file. With ``GraphMemory`` serving the data of such a miss, the answer is
/// cheap to compute again; what a viewer does ask again (a card refreshed, a repeated body) is
/// still kept from its second time. The admission filter of TinyLFU's "doorkeeper", in its
/// simplest form: a bounded set of 64-bit key hashes, oldest forgotten first.
///
/// ```swift
/// if asked.admit(key.digest) { /* look up, and keep the answer */ }
/// ```
final class AskedBefore: Sendable {
    private struct State {
        var seen = Set<UInt64>()
        var order: [UInt64]
        var next = 0
    }

    private let state: Mutex<State>
    let capacity: Int

    /// - Parameter capacity: keys remembered (8 bytes and a set slot each).
    init(capacity: Int = 200_000) {
        self.capacity = max(capacity, 1)
        state = Mutex(State(order: Array(repeating: 0, count: max(capacity, 1))))
    }

    /// True when `digest` was asked before (and is still remembered); remembers it otherwise.
    func admit(_ digest: String) -> Bool {
        let hash = Self.hash(digest)
        return state.withLock { state in
            if state.seen.contains(hash) { return true }
            let evicted = state.order[state.next]
            if evicted != 0 { state.seen.remove(evicted) }
            state.order[state.next] = hash
            state.next = (state.next + 1) % capacity
            state.seen.insert(hash)
            return false
        }
    }

    /// The first 16 hex digits of a SHA-256 key digest (never 0, the empty slot).
    static func hash(_ digest: String) -> UInt64 {
        var value: UInt64 = 0
        for byte in digest.utf8.prefix(16) {
            let nibble: UInt64 =
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
                default: UInt64(byte & 0x0f)
                }
            value = value << 4 | nibble
        }
        return value == 0 ? 1 : value
    }
}
