import SocialGateway

/// Recently used cache entries kept in memory, so that a hit does not read the SQLite file.
///
/// Each entry remembers the ``SharedGeneration`` read before it was read from the file or
/// computed; ``ResponseCacheStore`` serves it only while the generation is unchanged and the
/// entry is fresh. The file stays the source of truth: entries here are copies, bounded by count
/// and bytes, the least recently used quarter dropped in one sweep when a bound is crossed.
struct HotEntries: Sendable {
    struct Entry: Sendable {
        var response: CachedResponse
        var generation: UInt64
        var lastUse: UInt64
    }

    let maxEntries: Int
    let maxBytes: Int
    private var entries: [String: Entry] = [:]
    private var totalBytes = 0
    private var clock: UInt64 = 0

    init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    var count: Int { entries.count }

    /// The entry for `digest` if it was kept under `generation` and is fresh at `time`.
    mutating func servable(_ digest: String, generation: UInt64, at time: Double) -> CachedResponse? {
        guard let entry = entries[digest] else { return nil }
        guard entry.generation == generation, time < entry.response.expiresAt.timeIntervalSince1970 else {
            remove(digest)
            return nil
        }
        clock += 1
        entries[digest]?.lastUse = clock
        return entry.response
    }

    /// Keeps `response` under `generation`, replacing an older copy.
    mutating func keep(_ digest: String, _ response: CachedResponse, generation: UInt64) {
        guard maxEntries > 0, response.body.count <= maxBytes else { return }
        remove(digest)
        clock += 1
        entries[digest] = Entry(response: response, generation: generation, lastUse: clock)
        totalBytes += response.body.count
        if entries.count > maxEntries || totalBytes > maxBytes { evictLeastRecentlyUsed() }
    }

    mutating func remove(_ digest: String) {
        guard let old = entries.removeValue(forKey: digest) else { return }
        totalBytes -= old.response.body.count
    }

    mutating func removeAll() {
        entries.removeAll()
        totalBytes = 0
    }

    private mutating func evictLeastRecentlyUsed() {
        let byAge = entries.sorted { $0.value.lastUse < $1.value.lastUse }
        var removed = 0
        for (digest, _) in byAge {
            if entries.count <= maxEntries, totalBytes <= maxBytes, removed >= max(1, byAge.count / 4) { break }
            remove(digest)
            removed += 1
        }
    }
}
