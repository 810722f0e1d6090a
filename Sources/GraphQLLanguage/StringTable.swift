/// One `String` per distinct long name or string literal of a document.
///
/// Strings of up to 15 UTF-8 bytes live inline in the `String` value, but longer
/// ones are a heap allocation each, and documents repeat them: field and type
/// names, enum values, the same string argument on many fields. The lexer looks a
/// long token's source text up here and shares the `String` made the first time,
/// so a repeat costs a hash and a compare instead of an allocation (and, for a
/// string literal, re-reading its escapes or block indentation).
///
/// Keys are ranges of the source bytes, which outlive the parse, so nothing is
/// copied to remember them. The table holds one parse's strings: it is emptied
/// (``reset()``) before its ``ParserWorkspace`` serves another document, so
/// nothing is shared between documents or threads.
final class StringTable {
    private struct Entry {
        var hash: UInt32
        var start: UInt32
        var count: UInt32
        var value: String
    }

    /// The shortest text worth looking up: shorter strings are not allocated.
    static let minimumCount = 16

    // Entries and slots are plain buffers, not arrays: appending to an array held
    // by a class is a dynamically checked exclusive access on every insert.
    private var entries: UnsafeMutablePointer<Entry>?
    private var entryCount = 0
    private var entryCapacity = 0
    /// Open addressing over `entries`: index + 1, or 0 for an empty slot.
    private var slots: UnsafeMutablePointer<UInt32>?
    private var mask = 0

    init() {}

    deinit {
        entries?.deinitialize(count: entryCount)
        entries?.deallocate()
        slots?.deallocate()
    }

    /// The string already made for the source bytes `start..<end`, if any;
    /// `end - start` is at least ``minimumCount``. On a miss, `slot` is where
    /// ``insert(_:_:_:hash:slot:)`` puts the string made for them.
    @inline(__always)
    func lookup(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, hash: inout UInt32, slot: inout Int
    ) -> String? {
        let base = bytes.baseAddress.unsafelyUnwrapped
        let count = end - start
        hash = StringTable.hash(base + start, count)
        if slots == nil { allocate(64) }
        let slots = slots.unsafelyUnwrapped
        var i = Int(hash) & mask
        while true {
            let index = slots[i]
            if index == 0 { break }
            // Field by field: copying the whole entry would retain its string.
            let entry = entries.unsafelyUnwrapped + (Int(index) - 1)
            if entry.pointee.hash == hash, Int(entry.pointee.count) == count,
                memoryEqual(base + Int(entry.pointee.start), base + start, count)
            {
                return entry.pointee.value
            }
            i = (i + 1) & mask
        }
        slot = i
        return nil
    }

    /// Remembers `value` for the source bytes `start..<end`, after a ``lookup`` missed.
    func insert(_ value: String, _ start: Int, _ end: Int, hash: UInt32, slot: Int) {
        if entryCount == entryCapacity { growEntries() }
        (entries.unsafelyUnwrapped + entryCount).initialize(
            to: Entry(
                hash: hash, start: UInt32(truncatingIfNeeded: start), count: UInt32(truncatingIfNeeded: end - start),
                value: value))
        entryCount += 1
        slots.unsafelyUnwrapped[slot] = UInt32(truncatingIfNeeded: entryCount)
        if entryCount * 2 > mask { allocate((mask + 1) * 2) }
    }

    /// Forgets every string, keeping the buffers unless a large document grew them.
    func reset() {
        guard entryCount > 0, let entries else { return }
        entries.deinitialize(count: entryCount)
        if entryCount > 1024 {
            entries.deallocate()
            self.entries = nil
            entryCapacity = 0
            slots?.deallocate()
            slots = nil
            mask = 0
        } else {
            slots.unsafelyUnwrapped.update(repeating: 0, count: mask + 1)
        }
        entryCount = 0
    }

    private func growEntries() {
        let capacity = max(16, entryCapacity * 2)
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        if let entries {
            grown.moveInitialize(from: entries, count: entryCount)
            entries.deallocate()
        }
        entries = grown
        entryCapacity = capacity
    }

    private func allocate(_ capacity: Int) {
        slots?.deallocate()
        let slots = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        mask = capacity - 1
        for index in 0..<entryCount {
            var i = Int(entries.unsafelyUnwrapped[index].hash) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = UInt32(index + 1)
        }
        self.slots = slots
    }

    /// A 32-bit hash of `count` bytes, eight at a time.
    @inline(__always)
    private static func hash(_ p: UnsafePointer<UInt8>, _ count: Int) -> UInt32 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        if i < count {
            // The last eight bytes, overlapping ones already mixed (count >= 8 here).
            h = (h ^ raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) &* 0xC4CE_B9FE_1A85_EC53
            h ^= h >> 29
        }
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }

    @inline(__always)
    private func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var i = 0
        let ra = UnsafeRawPointer(a)
        let rb = UnsafeRawPointer(b)
        while i + 8 <= count {
            if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                return false
            }
            i += 8
        }
        while i < count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }
}
