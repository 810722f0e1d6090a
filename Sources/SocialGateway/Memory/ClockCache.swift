/// A map bounded by count and by an estimate of its bytes, evicting by use with the CLOCK
/// algorithm (second chance): each read marks its entry; when an insert needs room, the hand
/// sweeps the ring of keys, clearing marks, and evicts the first unmarked entry it meets.
///
/// Why CLOCK and not an exact LRU list: a read then costs a hash lookup and a flag write, no
/// list surgery, under the lock every request takes; and a scan of many once-read keys (a random
/// viewer's cards) cannot push out entries that are read again and again.
///
/// A value type: its owner keeps it under one lock (``GraphMemory``).
///
/// ```swift
/// var profiles = ClockCache<UUID, Profile>(maxCount: 100_000, maxBytes: 64 << 20)
/// profiles.insert(profile, for: profile.id, bytes: 400)
/// let hit = profiles.value(for: id)   // marks it used
/// ```
struct ClockCache<Key: Hashable, Value> {
    private struct Entry {
        var value: Value
        var slot: Int
        var bytes: Int
        var used: Bool
    }

    private var entries: [Key: Entry] = [:]
    private var ring: [Key?] = []
    private var free: [Int] = []
    private var hand = 0
    let maxCount: Int
    let maxBytes: Int
    private(set) var bytes = 0
    /// Entries evicted to make room since this cache was made (not those removed or cleared).
    private(set) var evictions = 0

    init(maxCount: Int, maxBytes: Int) {
        self.maxCount = max(maxCount, 1)
        self.maxBytes = max(maxBytes, 1)
    }

    var count: Int { entries.count }

    /// The value for `key`, marked as used; nil when absent.
    mutating func value(for key: Key) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        if !entries.values[index].used { entries.values[index].used = true }
        return entries.values[index].value
    }

    /// Whether `key` is held, without marking it.
    func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Adds or replaces the value for `key`, evicting unused entries until it fits. A value larger
    /// than the whole byte bound is not kept.
    mutating func insert(_ value: Value, for key: Key, bytes size: Int) {
        remove(key)
        guard size <= maxBytes else { return }
        while entries.count >= maxCount || bytes + size > maxBytes, evictOne() {}
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            ring[slot] = key
        } else {
            slot = ring.count
            ring.append(key)
        }
        entries[key] = Entry(value: value, slot: slot, bytes: size, used: false)
        bytes += size
    }

    /// Forgets `key`; true when it was held.
    @discardableResult
    mutating func remove(_ key: Key) -> Bool {
        guard let entry = entries.removeValue(forKey: key) else { return false }
        ring[entry.slot] = nil
        free.append(entry.slot)
        bytes -= entry.bytes
        return true
    }

    /// Forgets everything.
    mutating func removeAll() {
        entries.removeAll()
        ring.removeAll()
        free.removeAll()
        hand = 0
        bytes = 0
    }

    /// Evicts the first unused entry at or after the hand, giving used ones a second chance.
    /// False when there is nothing to evict.
    private mutating func evictOne() -> Bool {
        guard !entries.isEmpty else { return false }
        // Two turns of the ring at most: the first clears every mark, the second finds one.
        for _ in 0..<(2 * ring.count + 1) {
            if hand >= ring.count { hand = 0 }
            defer { hand += 1 }
            guard let key = ring[hand], let index = entries.index(forKey: key) else { continue }
            if entries.values[index].used {
                entries.values[index].used = false
                continue
            }
            remove(key)
            evictions += 1
            return true
        }
        return false
    }
}
