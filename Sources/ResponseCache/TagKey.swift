/// A tag as the cache file stores it: a 64-bit hash (FNV-1a) of its text.
///
/// Why: a follower graph's answer carries some 550 tags ("Profile:<uuid>" and the like, ~44
/// bytes each); stored as text, their two index rows took 66 KB per answer, more than the
/// deflated body, and the size bound counted them. As integers they take a third of that. Two
/// tags with the same hash only make an invalidation remove more than it had to: an answer is
/// never kept past an invalidation of one of its tags, since equal text always hashes equal.
enum TagKey {
    static func of(_ tag: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in tag.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
