import Foundation
import GRDB
import Logging
import Synchronization

// LRU bookkeeping and eviction under the size bound.
extension ResponseCacheStore {
    // MARK: LRU bookkeeping

    /// Takes the pending access times out of memory, to be written by the caller's transaction.
    func takeTouches() -> ([String: Double], [String: Double]) {
        state.withLock { state in
            defer {
                state.entryTouches.removeAll(keepingCapacity: true)
                state.queryTouches.removeAll(keepingCapacity: true)
            }
            return (state.entryTouches, state.queryTouches)
        }
    }

    /// Writes pending access times now (also done by every store).
    func flushTouches() async {
        guard let pool else { return }
        let (entryTouches, queryTouches) = takeTouches()
        guard !entryTouches.isEmpty || !queryTouches.isEmpty else { return }
        do {
            try await pool.write { db in
                try Self.apply(entryTouches: entryTouches, queryTouches: queryTouches, in: db)
            }
        } catch {
            logger.warning("response cache access times not written", metadata: ["error": "\(error)"])
        }
    }

    static func apply(entryTouches: [String: Double], queryTouches: [String: Double], in db: Database) throws {
        if !entryTouches.isEmpty {
            let touch = try db.cachedStatement(sql: CacheSchema.touchEntry)
            for (digest, time) in entryTouches {
                try touch.execute(arguments: [time, digest, time])
            }
        }
        if !queryTouches.isEmpty {
            let touch = try db.cachedStatement(sql: PersistedQueries.touch)
            for (hash, time) in queryTouches {
                try touch.execute(arguments: [time, hash, time])
            }
        }
    }
}
