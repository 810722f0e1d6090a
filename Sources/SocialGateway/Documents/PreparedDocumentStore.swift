import Synchronization

/// A bounded in-memory map from request text to its ``PreparedDocument``.
///
/// Entries depend only on the text and the schema, never on data, so the store needs no
/// invalidation and is safe to share between viewers. It keeps valid documents only, bounded by
/// entry count and by the total size of their texts (a parsed document takes about five times
/// its text: 4 MiB of text is about 20 MiB of documents); texts larger than ``maxTextBytes``
/// are prepared for their request and not kept. When a
/// bound is crossed, the least recently used quarter of the entries goes in one sweep, so
/// the bookkeeping stays O(1) per request on average.
final class PreparedDocumentStore: Sendable {
    struct Limits: Sendable {
        /// Most documents kept.
        var maxEntries = 1_000
        /// Most bytes of request text kept in total.
        var maxTotalTextBytes = 4 * 1024 * 1024
        /// Larger texts are not kept.
        var maxTextBytes = 64 * 1024
    }

    private struct Entry {
        let document: PreparedDocument
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var totalTextBytes = 0
        var clock: UInt64 = 0
    }

    let limits: Limits
    private let state = Mutex(State())

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The number of documents kept.
    var count: Int { state.withLock { $0.entries.count } }

    /// The prepared document for `text`: the kept one, or a new one from `prepare`, kept if it fits.
    func document<E: Error>(for text: String, prepare: () throws(E) -> PreparedDocument) throws(E) -> PreparedDocument {
        let kept = state.withLock { state -> PreparedDocument? in
            guard let entry = state.entries[text] else { return nil }
            state.clock += 1
            state.entries[text]?.lastUse = state.clock
            return entry.document
        }
        if let kept { return kept }
        let prepared = try prepare()
        // Invalid documents are answered and dropped: keeping them would let a client push
        // valid documents out with ones that will never execute.
        guard prepared.errors.isEmpty, prepared.textBytes <= limits.maxTextBytes else { return prepared }
        state.withLock { state in
            guard state.entries[text] == nil else { return }
            state.clock += 1
            state.entries[text] = Entry(document: prepared, lastUse: state.clock)
            state.totalTextBytes += prepared.textBytes
            if state.entries.count > limits.maxEntries || state.totalTextBytes > limits.maxTotalTextBytes {
                evictLeastRecentlyUsed(&state)
            }
        }
        return prepared
    }

    /// Drops the least recently used quarter of the entries, and more until both bounds hold.
    private func evictLeastRecentlyUsed(_ state: inout State) {
        let byAge = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }
        var removed = 0
        for (text, entry) in byAge {
            let withinBounds =
                state.entries.count <= limits.maxEntries && state.totalTextBytes <= limits.maxTotalTextBytes
            if withinBounds && removed >= max(1, byAge.count / 4) { break }
            state.entries[text] = nil
            state.totalTextBytes -= entry.document.textBytes
            removed += 1
        }
    }
}
