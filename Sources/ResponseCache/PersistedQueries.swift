import Foundation
import GRDB
import SocialGateway

/// Automatic persisted queries (Apollo's APQ protocol), stored next to the responses.
///
/// A client first sends only `extensions.persistedQuery.sha256Hash`; on a miss the gateway answers
/// `PersistedQueryNotFound` and the client retries with the query and the hash, which is stored
/// only if the hash really is the SHA-256 of the query, so a client cannot bind a hash to another
/// document for everyone else. The gateway registers a query only once it has parsed and
/// validated, so nothing a client invents reaches the disk. Least recently used queries are
/// dropped past ``ResponseCacheOptions/maxPersistedQueries`` or
/// ``ResponseCacheOptions/maxPersistedQueryBytes``, a bound of their own, apart from the
/// responses'.
///
/// ```swift
/// guard let query = await cache.persistedQuery(sha256Hash: hash) else { return .persistedQueryNotFound }
/// guard await cache.storePersistedQuery(query, sha256Hash: hash) else { return .badRequest("provided sha does not match query") }
/// ```
enum PersistedQueries {
    static let select = "SELECT query FROM persisted_queries WHERE hash = ?"
    static let upsert = """
        INSERT INTO persisted_queries (hash, query, last_used, bytes) VALUES (?, ?, ?, ?)
        ON CONFLICT (hash) DO UPDATE SET query = excluded.query, last_used = excluded.last_used, bytes = excluded.bytes
        """
    static let touch = "UPDATE persisted_queries SET last_used = ? WHERE hash = ? AND last_used < ?"
    static let count = "SELECT COUNT(*) FROM persisted_queries"
    static let totalBytes = "SELECT total_bytes FROM persisted_query_meta WHERE id = 1"
    /// The least recently used queries but the one just stored.
    static let pruneOldest = """
        DELETE FROM persisted_queries WHERE hash IN
            (SELECT hash FROM persisted_queries WHERE hash <> ? ORDER BY last_used ASC LIMIT ?)
        """
}

extension ResponseCacheStore {
    /// The query stored under `sha256Hash` (hex, either case), or nil: the caller then answers
    /// `PersistedQueryNotFound`. Always nil on a disabled store.
    public func persistedQuery(sha256Hash: String, now: Date = Date()) async -> String? {
        guard let pool, DocumentHash.isWellFormed(sha256Hash) else { return nil }
        let hash = sha256Hash.lowercased()
        let query: String?
        do {
            query = try await pool.read { db in
                try String.fetchOne(db.cachedStatement(sql: PersistedQueries.select), arguments: [hash])
            }
        } catch {
            logger.warning("persisted query lookup failed", metadata: ["error": "\(error)"])
            return nil
        }
        // A damaged row must not run in place of the client's query.
        guard let query, DocumentHash.of(query) == hash else { return nil }
        let time = now.timeIntervalSince1970
        state.withLock { $0.queryTouches[hash] = max($0.queryTouches[hash] ?? 0, time) }
        return query
    }

    /// Stores `query` under `sha256Hash` after checking that the hash is the query's SHA-256.
    ///
    /// - Returns: false on mismatch (the caller answers "provided sha does not match query");
    ///   true otherwise, also when the store is disabled or the write fails (the request can
    ///   still run; the client will simply register the query again).
    public func storePersistedQuery(_ query: String, sha256Hash: String, now: Date = Date()) async -> Bool {
        let hash = sha256Hash.lowercased()
        guard DocumentHash.of(query) == hash else { return false }
        guard let pool else { return true }
        let time = now.timeIntervalSince1970
        let limit = options.maxPersistedQueries
        let byteLimit = options.maxPersistedQueryBytes
        let bytes = query.utf8.count
        guard bytes <= byteLimit else {
            logger.info("persisted query larger than its bound, not stored", metadata: ["bytes": "\(bytes)"])
            return true
        }
        let (entryTouches, queryTouches) = takeTouches()
        do {
            try await pool.write { db in
                try Self.apply(entryTouches: entryTouches, queryTouches: queryTouches, in: db)
                try db.cachedStatement(sql: PersistedQueries.upsert).execute(arguments: [hash, query, time, bytes])
                let count = try Int.fetchOne(db.cachedStatement(sql: PersistedQueries.count)) ?? 0
                if count > limit {
                    try db.cachedStatement(sql: PersistedQueries.pruneOldest).execute(arguments: [hash, count - limit])
                }
                // Then by bytes: the oldest go one at a time until the total fits (each round is
                // an indexed delete; usually one or two rounds, as queries are small).
                while try (Int.fetchOne(db.cachedStatement(sql: PersistedQueries.totalBytes)) ?? 0) > byteLimit {
                    try db.cachedStatement(sql: PersistedQueries.pruneOldest).execute(arguments: [hash, 1])
                    if db.changesCount == 0 { break }
                }
            }
        } catch {
            logger.warning("persisted query not stored", metadata: ["error": "\(error)"])
        }
        return true
    }
}
