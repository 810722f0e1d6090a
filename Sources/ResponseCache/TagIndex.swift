import Foundation
import GRDB

/// Which entries carry which tag: the cache file's `entry_tag_sets` (an entry's tags, one packed
/// row per entry) turned around in memory, so that an invalidation finds its entries without an
/// index by tag in the file.
///
/// Why (issue #17): an index by tag in the file took one row per tag and entry, inserted at
/// random places of a large B-tree. A follower graph's 550 tags dirtied some 500 pages per
/// store, written to the WAL and checkpointed: 2.7 ms of CPU per stored graph, more than
/// running the graph's SQL, and the single writer fell so far behind that most answers of a
/// burst of misses were dropped instead of cached. A packed row per entry appends to the end
/// of one table; the turned-around index costs a dictionary insert per tag.
///
/// Correctness across processes on one file: the index only changes inside write transactions
/// of this process, which hold the file's write lock, and before it is used it reads every tag
/// set stored since it last looked (``catchUp(_:)``), whoever stored it. Ids are never reused
/// (`AUTOINCREMENT`), so an id it still holds after another process deleted the entry only
/// makes an invalidation mark a row that is gone. If a transaction that changed it does not
/// commit, the whole index is rebuilt from the file before its next use (``markStale()``):
/// a rolled-back id could otherwise be given to another process's entry unread.
struct TagIndex: Sendable {
    /// Entry ids by tag key; may hold ids whose entries are gone (see above).
    private var postings: [Int64: [Int64]] = [:]
    /// How many ids ``postings`` holds in all.
    private(set) var postingCount = 0
    /// Every tag set with an entry id up to this one is in ``postings``.
    private(set) var indexedThrough: Int64 = 0
    /// Whether ``postings`` must be read again from the file before its next use.
    private(set) var isStale = true

    /// Makes the index whole: reads the tag sets stored since it last looked, or all of them
    /// when it is stale or holds far more ids than the file (entries deleted by other processes,
    /// whose tag sets this one never read).
    /// - Parameter db: a connection inside a write transaction.
    mutating func catchUp(_ db: Database) throws {
        if !isStale, postingCount > rebuildSlack,
           let live = try Int.fetchOne(db.cachedStatement(sql: CacheSchema.totalTags)), postingCount > 2 * live + rebuildSlack {
            isStale = true
        }
        if isStale {
            postings.removeAll()
            postingCount = 0
            indexedThrough = 0
        }
        let rows = try Row.fetchCursor(db.cachedStatement(sql: CacheSchema.tagSetsAfter), arguments: [indexedThrough])
        while let row = try rows.next() {
            add(entry: row[0], tags: Self.unpack(row[1]))
        }
        isStale = false
    }

    /// Ids the index may hold beyond twice the file's tags before it is rebuilt (about 1.6 MB).
    var rebuildSlack = 100_000

    /// Records the tags of `entry`, stored in the current transaction after a ``catchUp(_:)``.
    mutating func add(entry: Int64, tags: [Int64]) {
        for tag in tags {
            postings[tag, default: []].append(entry)
        }
        postingCount += tags.count
        indexedThrough = max(indexedThrough, entry)
    }

    /// The entries carrying `tag` (some may be gone already).
    func entries(tagged tag: Int64) -> [Int64] {
        postings[tag] ?? []
    }

    /// Forgets `entry`, whose tag set is being deleted.
    mutating func remove(entry: Int64, tags: [Int64]) {
        for tag in tags {
            guard var ids = postings[tag], let at = ids.firstIndex(of: entry) else { continue }
            ids.swapAt(at, ids.count - 1)
            ids.removeLast()
            postings[tag] = ids.isEmpty ? nil : ids
            postingCount -= 1
        }
    }

    /// Forgets everything and rebuilds before the next use: after a clear of the file, or a
    /// transaction that changed the index and may not have committed.
    mutating func markStale() {
        postings.removeAll()
        postingCount = 0
        indexedThrough = 0
        isStale = true
    }

    /// A tag set as the file stores it: the keys as 8-byte little-endian integers.
    static func pack(_ tags: some Collection<Int64>) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(tags.count * 8)
        for tag in tags {
            withUnsafeBytes(of: tag.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// The keys of a packed tag set (a trailing partial key is ignored).
    static func unpack(_ data: Data) -> [Int64] {
        var tags = [Int64]()
        tags.reserveCapacity(data.count / 8)
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                tags.append(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
                offset += 8
            }
        }
        return tags
    }
}
