import Foundation
import GRDB
import Logging
import SocialGateway
import Synchronization

// Invalidation by tag, committed before it returns; dead entries reclaimed later.
extension ResponseCacheStore {
    // MARK: Invalidation

    /// Makes every entry carrying any of `tags` unservable, committed before it returns, and
    /// refuses later stores of computations that began before it (see ``CacheToken``).
    ///
    /// The entries, found in this process's ``TagIndex``, are marked dead, one small row each;
    /// deleting them with their tag sets is left to a background task
    /// (``reclaimDeadEntries()``), so the caller, a mutation waiting to answer, waits for its
    /// marks and at most one other short write, however much the cache holds.
    ///
    /// If the delete cannot be committed, lookups are turned off (they could return entries that
    /// should be gone) and an error is logged.
    /// - Parameter tags: entity tags (`Profile:<id>`) and list tags (`followers:<id>`, `search`).
    public func invalidate(tags: Set<String>) async {
        guard !tags.isEmpty else { return }
        // Record first: a store whose admission check runs after this line is refused; one that
        // ran before commits before our delete below takes the writer, and is deleted by it.
        state.withLock { $0.ledger.invalidate(tags) }
        guard pool != nil else { return }
        do {
            try await writeWithTagIndex { db, index in
                // Inside the write transaction, which holds the file's write lock: another
                // process's store that takes the lock after ours sees the move and refuses a
                // computation that began before it. The index has read every tag set committed
                // before this transaction, in any process.
                self.advanceGeneration()
                let mark = try db.cachedStatement(sql: CacheSchema.markDead)
                for tag in tags {
                    for entry in index.entries(tagged: TagKey.of(tag)) {
                        try mark.execute(arguments: [entry])
                    }
                }
            }
            writeSucceeded()
            scheduleReclaim()
        } catch {
            writeFailed("invalidation", error: error, lookupsOff: true)
        }
        // And after the delete committed: a lookup that read the generation between the two
        // moves may have read the file before the delete, and must not keep what it found.
        advanceGeneration()
    }

    /// Starts the background reclaimer unless it is running (then it looks again when done).
    func scheduleReclaim() {
        let start = state.withLock { state -> Bool in
            if state.reclaiming {
                state.reclaimAgain = true
                return false
            }
            state.reclaiming = true
            return true
        }
        if start { Task { await self.reclaimDeadEntries() } }
    }

    /// Deletes dead entries with their tag sets, ``CacheSchema/reclaimBatch`` per write
    /// transaction, until none is left (in any process's name: marks left by a process that
    /// died go too).
    ///
    /// A failure stops it quietly: a dead entry is never served, it only takes room until a
    /// later run or eviction reclaims it.
    func reclaimDeadEntries() async {
        guard pool != nil else { return }
        while true {
            var more = false
            do {
                more = try await writeWithTagIndex { db, index in try Self.reclaimStep(in: db, index: &index) }
            } catch {
                logger.debug("response cache: reclaiming dead entries failed", metadata: ["error": "\(error)"])
            }
            if more { continue }
            let again = state.withLock { state -> Bool in
                if state.reclaimAgain {
                    state.reclaimAgain = false
                    return true
                }
                state.reclaiming = false
                return false
            }
            if !again { return }
        }
    }
}
