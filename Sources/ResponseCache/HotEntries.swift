import SocialGateway

/// Recently used cache entries kept in memory, so that a hit does not read the SQLite file.
///
/// Each entry remembers the ``SharedGeneration`` read before it was read from the file or
/// computed; ``ResponseCacheStore`` serves it only while the generation is unchanged and the
/// entry is fresh. The file stays the source of truth: entries here are copies, bounded by count
/// and bytes, the least recently used quarter dropped in one sweep when a bound is crossed.
///
/// An entry counts its inflated body and, when it has one, its deflated copy (about a quarter
/// more for JSON): both are kept so that a hit costs a copy whether the client takes gzip,
/// deflate or neither (issue #41); inflating on each identity hit instead would cost ~0.1 ms
/// per follower graph.
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
        let size = Self.size(of: response)
        guard maxEntries > 0, size <= maxBytes else { return }
        remove(digest)
        clock += 1
        entries[digest] = Entry(response: response, generation: generation, lastUse: clock)
        totalBytes += size
        if entries.count > maxEntries || totalBytes > maxBytes { evictLeastRecentlyUsed() }
    }

    mutating func remove(_ digest: String) {
        guard let old = entries.removeValue(forKey: digest) else { return }
        totalBytes -= Self.size(of: old.response)
    }

    /// Adds `deflated` to the entry for `digest` when it is the same answer (`etag`) and was
    /// kept without it (kept before its background store had deflated it).
    mutating func attach(_ digest: String, _ deflated: DeflatedBody, etag: String) {
        guard var entry = entries[digest], entry.response.deflated == nil, entry.response.etag == etag else { return }
        entry.response.deflated = deflated
        entries[digest] = entry
        totalBytes += deflated.byteCount
        if totalBytes > maxBytes { evictLeastRecentlyUsed() }
    }

    /// The bytes an entry is accounted for: its body and its deflated copy.
    static func size(of response: CachedResponse) -> Int {
        response.body.count + (response.deflated?.byteCount ?? 0)
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
