/// Decides whether a value read from the store may still be kept: a read that began before an
/// invalidation of its key must not put back what the write replaced.
///
/// Every invalidation takes the next number and writes it into the stripe of its key (many keys
/// share a stripe: a false conflict only costs a refill). A fill takes the current number, its
/// ticket, before it reads; when it returns it may keep a key only if that key's stripe is not
/// newer than the ticket, and nothing was cleared after the ticket either. The same guard as the
/// response cache's tokens, per key instead of per cache: a write elsewhere does not spoil fills.
///
/// A value type, kept under its owner's lock (``GraphMemory``).
struct FillTickets {
    /// A number taken before a store read.
    struct Ticket: Sendable, Hashable, Comparable {
        let value: UInt64
        static func < (lhs: Ticket, rhs: Ticket) -> Bool { lhs.value < rhs.value }
    }

    private var stripes: [UInt64]
    private var latest: UInt64 = 0
    /// Tickets older than this were taken before a clear: nothing they read may be kept.
    private var floor: UInt64 = 0

    init(stripes count: Int = 4096) {
        stripes = Array(repeating: 0, count: max(count, 1))
    }

    /// The ticket a fill takes before it reads.
    var ticket: Ticket { Ticket(value: latest) }

    /// Marks `key` as changed now.
    mutating func invalidate(_ key: some Hashable) {
        latest += 1
        stripes[stripe(of: key)] = latest
    }

    /// Marks everything as changed now.
    mutating func invalidateAll() {
        latest += 1
        floor = latest
    }

    /// Whether a value of `key` read under `ticket` may be kept.
    func mayKeep(_ key: some Hashable, readUnder ticket: Ticket) -> Bool {
        ticket.value >= floor && stripes[stripe(of: key)] <= ticket.value
    }

    private func stripe(of key: some Hashable) -> Int {
        Int(UInt(bitPattern: key.hashValue) % UInt(stripes.count))
    }
}
