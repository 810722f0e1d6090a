import GRDB

/// The cache database's tables, created by one migration.
///
/// - `entries`: one row per key digest with the body, its ETag, times and accounted size.
///   `last_access` orders LRU eviction; `expires_at` drives the expiry sweep.
/// - `entry_tags`: the tags recorded during execution, deleted with their entry (foreign key
///   cascade), indexed by tag so invalidation is one indexed delete per tag.
/// - `cache_meta`: one row holding the total accounted size, kept exact by triggers in the same
///   transaction as every insert and delete, so eviction never scans the table to sum sizes.
/// - `persisted_queries`: APQ documents by lower-case hex SHA-256, with their UTF-8 size.
/// - `persisted_query_meta`: one row holding the total size of the persisted queries, kept exact
///   by triggers as `cache_meta` is, so their own byte bound is checked without a scan (v2).
///
/// - `dead_entries`: entries an invalidation made unservable, by digest (v3). Marking is one small
///   insert per tagged entry, where deleting an entry also deletes its tag rows (a follower graph
///   carries some 550): the mutation that invalidates waits only for the marks, and the entries
///   with their tags are reclaimed in the background, a few per write transaction, so no write to
///   the file holds the writer for long. Lookups skip marked entries; storing a key again unmarks it.
///
/// There is no on-disk record of invalidation generations: in-flight computations live only in
/// this process (see ``CacheToken``), and a new process starts with none.
enum CacheSchema {
    /// Accounted bytes per entry on top of its body: digest, ETag, times and index rows.
    static let entryOverhead = 256

    /// The bytes an entry is accounted for: its body, the overhead, and each tag's two index
    /// rows (tag and 64-character digest in each, plus their headers). A follower graph carries
    /// some 550 tags, about 90 KB of them on disk: left out, the bound would not bound the file.
    static func accountedSize(bodyBytes: Int, tags: Set<String>) -> Int {
        tags.reduce(bodyBytes + entryOverhead) { $0 + 2 * ($1.utf8.count + 64) + 16 }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE entries (
                    digest TEXT PRIMARY KEY NOT NULL,
                    body BLOB NOT NULL,
                    etag TEXT NOT NULL,
                    stored_at REAL NOT NULL,
                    expires_at REAL NOT NULL,
                    max_age INTEGER NOT NULL,
                    last_access REAL NOT NULL,
                    size INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX entries_last_access ON entries(last_access);
                CREATE INDEX entries_expires_at ON entries(expires_at);
                CREATE TABLE entry_tags (
                    tag TEXT NOT NULL,
                    digest TEXT NOT NULL REFERENCES entries(digest) ON DELETE CASCADE,
                    PRIMARY KEY (tag, digest)
                ) WITHOUT ROWID;
                CREATE INDEX entry_tags_digest ON entry_tags(digest);
                CREATE TABLE cache_meta (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    total_bytes INTEGER NOT NULL
                );
                INSERT INTO cache_meta (id, total_bytes) VALUES (1, 0);
                CREATE TRIGGER entries_size_insert AFTER INSERT ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes + NEW.size WHERE id = 1;
                END;
                CREATE TRIGGER entries_size_delete AFTER DELETE ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes - OLD.size WHERE id = 1;
                END;
                CREATE TRIGGER entries_size_update AFTER UPDATE OF size ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes - OLD.size + NEW.size WHERE id = 1;
                END;
                CREATE TABLE persisted_queries (
                    hash TEXT PRIMARY KEY NOT NULL,
                    query TEXT NOT NULL,
                    last_used REAL NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX persisted_queries_last_used ON persisted_queries(last_used);
                """)
        }
        // v2: persisted queries count their bytes against a bound of their own.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                ALTER TABLE persisted_queries ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
                UPDATE persisted_queries SET bytes = length(CAST(query AS BLOB));
                CREATE TABLE persisted_query_meta (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    total_bytes INTEGER NOT NULL
                );
                INSERT INTO persisted_query_meta (id, total_bytes)
                    VALUES (1, (SELECT COALESCE(SUM(bytes), 0) FROM persisted_queries));
                CREATE TRIGGER persisted_queries_size_insert AFTER INSERT ON persisted_queries BEGIN
                    UPDATE persisted_query_meta SET total_bytes = total_bytes + NEW.bytes WHERE id = 1;
                END;
                CREATE TRIGGER persisted_queries_size_delete AFTER DELETE ON persisted_queries BEGIN
                    UPDATE persisted_query_meta SET total_bytes = total_bytes - OLD.bytes WHERE id = 1;
                END;
                CREATE TRIGGER persisted_queries_size_update AFTER UPDATE OF bytes ON persisted_queries BEGIN
                    UPDATE persisted_query_meta SET total_bytes = total_bytes - OLD.bytes + NEW.bytes WHERE id = 1;
                END;
                """)
        }
        // v3: invalidation marks entries dead; they are reclaimed in the background.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "CREATE TABLE dead_entries (digest TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID")
        }
        return migrator
    }

    // Hot-path statements, prepared once per connection through `cachedStatement`.
    static let selectEntry = """
        SELECT body, etag, stored_at, expires_at, max_age FROM entries
        WHERE digest = ?1 AND NOT EXISTS (SELECT 1 FROM dead_entries WHERE digest = ?1)
        """
    static let deleteEntry = "DELETE FROM entries WHERE digest = ?"
    static let unmarkDead = "DELETE FROM dead_entries WHERE digest = ?"
    static let insertEntry = """
        INSERT INTO entries (digest, body, etag, stored_at, expires_at, max_age, last_access, size)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let insertTag = "INSERT OR IGNORE INTO entry_tags (tag, digest) VALUES (?, ?)"
    static let touchEntry = "UPDATE entries SET last_access = ? WHERE digest = ? AND last_access < ?"
    static let markTagged = "INSERT OR IGNORE INTO dead_entries (digest) SELECT digest FROM entry_tags WHERE tag = ?"
    static let someDead = "SELECT digest FROM dead_entries LIMIT ?"
    static let anyDead = "SELECT EXISTS (SELECT 1 FROM dead_entries)"
    static let totalBytes = "SELECT total_bytes FROM cache_meta WHERE id = 1"
    static let leastRecentlyUsed = "SELECT digest FROM entries ORDER BY last_access ASC LIMIT ?"
    /// Bounded like reclaiming: a store never deletes more than a few entries with their tags.
    static let someExpired = "SELECT digest FROM entries WHERE expires_at < ? LIMIT ?"
    static let clearAll = "DELETE FROM dead_entries; DELETE FROM entry_tags; DELETE FROM entries"
}
