import Foundation
import GRDB
import Logging
import Synchronization

// Writes to the backing store: the shared generation, suspension while a change feed is lost, clearing.
extension ResponseCacheStore {
    // MARK: Writes to the backing store

    /// Marks the start of a write to the backing store whose ``invalidate(tags:)`` will follow.
    /// Pair it with ``endWrite()`` once that invalidation has returned.
    ///
    /// The count of writes in progress lives in the generation file shared by every process on
    /// the cache. A process that dies between a committed write and its invalidation leaves it
    /// above zero, and the next process that opens the cache alone clears every entry, so that
    /// nothing older than the store is served after a restart.
    public func beginWrite() { generation?.beginWrite() }

    /// Ends a write begun with ``beginWrite()``, after its invalidation.
    public func endWrite() { generation?.endWrite() }

    /// Makes every copy kept in memory, in this process and in others, unservable, and refuses
    /// stores of computations that began before (see ``admits(_:tags:)``).
    func advanceGeneration() {
        state.withLock { state in
            // Under the lock that admissions take, so they see both moves or neither.
            state.ownAdvances &+= 1
            generation?.advance()
        }
        hot.withLock { $0.removeAll() }
    }

    /// Stops answering lookups (each is a miss) until ``resumeLookups()``: for when the
    /// invalidations of other writers may be missed (the change feed that reports them is not
    /// connected). Stores go on; ``resumeLookups()`` clears them with everything else.
    public func suspendLookups() {
        state.withLock {
            $0.suspended = true
            $0.suspensions += 1
        }
        hot.withLock { $0.removeAll() }
    }

    /// Clears every response entry, then answers lookups again: for when the change feed is
    /// connected (again), so that nothing stored before it missed an invalidation is served.
    public func resumeLookups() async {
        let epoch = state.withLock { $0.suspensions }
        await removeAll()
        state.withLock { state in
            if state.suspensions == epoch { state.suspended = false }
        }
    }

    /// Whether lookups are suspended (see ``suspendLookups()``).
    public var isSuspended: Bool { state.withLock { $0.suspended } }

    /// Removes every response entry (persisted queries stay) and refuses stores of computations
    /// that began before it. A success re-enables lookups after a failed invalidation.
    public func removeAll() async {
        state.withLock {
            $0.ledger.invalidateAll()
            $0.entryTouches.removeAll()
        }
        guard pool != nil else { return }
        do {
            try await writeWithTagIndex { db, index in
                self.advanceGeneration()
                try db.execute(sql: CacheSchema.clearAll)
                index.markStale()
            }
            let wasOff = state.withLock { state -> Bool in
                defer { state.invalidationFailed = false }
                return state.invalidationFailed
            }
            generation?.isPoisoned = false
            writeSucceeded()
            if wasOff { logger.notice("response cache cleared; lookups enabled again") }
        } catch {
            writeFailed("clear", error: error, lookupsOff: true)
        }
        advanceGeneration()
    }
}
