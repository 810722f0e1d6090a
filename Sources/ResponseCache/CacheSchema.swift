import GRDB
import SocialGateway

/// The cache database's tables, created by its migrations (v6 is the current shape).
///
/// - `entries`: one row per key digest, with an integer id, the body (deflated when that is
///   smaller, see ``BodyCompression``; `encoding` says which), its ETag, times and accounted
///   size, and for a deflated body the CRC-32 of the inflated one (`crc32`, v6), which HTTP's
///   gzip frame ends with. `last_access` orders LRU eviction; `expires_at` drives the expiry sweep. Ids are never
///   reused (`AUTOINCREMENT`): a deleted entry's tag set and mark may outlive its row until the
///   reclaimer has removed them.
/// - `entry_tag_sets`: the tags recorded during an entry's execution (as ``TagKey`` hashes),
///   packed in one row per entry id and written in the entry's own transaction. Each process
///   turns them around in memory (``TagIndex``) to find an invalidation's entries.
/// - `dead_entries`: entries an invalidation made unservable, and entries deleted whose tag sets
///   are still there, by id. Lookups skip them; a background task deletes their rows and tag
///   sets, a few per transaction.
/// - `cache_meta`: one row holding the total accounted size and the number of stored tags, kept
///   exact by triggers in the same transaction as every insert and delete, so eviction never
///   scans the table to sum sizes.
/// - `persisted_queries`: APQ documents by lower-case hex SHA-256, with their UTF-8 size.
/// - `persisted_query_meta`: one row holding the total size of the persisted queries, kept exact
///   by triggers as `cache_meta` is, so their own byte bound is checked without a scan (v2).
///
/// Why this shape (issue #17): a follower graph's answer carries some 550 tags. Keyed by the
/// 64-character digest, with a foreign key cascading deletes from `entries` (v1-v2), storing one
/// took 44 ms of SQLite work. With integer ids, no foreign key and an index by tag (v3-v4), 8 ms,
/// and still 2.7 ms of CPU per graph on the server: its 550 index rows landed on some 500
/// random pages of one B-tree, each written to the WAL and checkpointed, and the one writer fell
/// so far behind a burst of misses that most answers were dropped instead of stored. v5 appends
/// one packed row per entry instead. No write holds the file's writer for long: a store is one
/// short transaction, an invalidation marks its entries dead (one small row each), and eviction,
/// expiry and the reclaimer delete a few rows per transaction. So the mutation that invalidates
/// waits for its marks and at most one short write, however full the cache and however busy the
/// machine.
///
/// There is no on-disk record of invalidation generations: in-flight computations live only in
/// this process (see ``CacheToken``), and a new process starts with none.
enum CacheSchema {
    /// Accounted bytes per entry on top of its body: digest, ETag, times and index rows.
    static let entryOverhead = 256

    /// The bytes an entry is accounted for: its stored (deflated) body, the overhead, and each
    /// tag's 64-bit key in the packed tag set, plus as much again for the copy each process
    /// keeps in memory (``TagIndex``). A follower graph carries some 550 tags, about 9 KB: left
    /// out, the bound would not bound the file.
    static func accountedSize(storedBodyBytes: Int, tagCount: Int) -> Int {
        storedBodyBytes + entryOverhead + tagCount * 16
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
        // v3: integer entry ids, no foreign key, and dead entries (see above). A cache can be
        // dropped: the entries of v2 go, persisted queries stay.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                DROP TABLE entry_tags;
                DROP TABLE entries;
                CREATE TABLE entries (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    digest TEXT UNIQUE,
                    body BLOB NOT NULL,
                    etag TEXT NOT NULL,
                    stored_at REAL NOT NULL,
                    expires_at REAL NOT NULL,
                    max_age INTEGER NOT NULL,
                    last_access REAL NOT NULL,
                    size INTEGER NOT NULL
                );
                CREATE INDEX entries_last_access ON entries(last_access);
                CREATE INDEX entries_expires_at ON entries(expires_at);
                CREATE TABLE entry_tags (
                    tag TEXT NOT NULL,
                    entry INTEGER NOT NULL,
                    PRIMARY KEY (tag, entry)
                ) WITHOUT ROWID;
                CREATE INDEX entry_tags_entry ON entry_tags(entry);
                CREATE TABLE dead_entries (entry INTEGER PRIMARY KEY);
                UPDATE cache_meta SET total_bytes = 0 WHERE id = 1;
                CREATE TRIGGER entries_size_insert AFTER INSERT ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes + NEW.size WHERE id = 1;
                END;
                CREATE TRIGGER entries_size_delete AFTER DELETE ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes - OLD.size WHERE id = 1;
                END;
                CREATE TRIGGER entries_size_update AFTER UPDATE OF size ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes - OLD.size + NEW.size WHERE id = 1;
                END;
                """)
        }
        // v4: bodies deflated (`encoding`) and tags as 64-bit keys (``TagKey``), issue #17: a
        // graph's answer took 197 KB of the bound (131 KB of JSON, 66 KB of tag index), so a
        // 64 MiB cache held a third of 1,000 random graphs; now 57 KB. Entries go, as in v3.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                DROP TABLE entry_tags;
                DROP TABLE dead_entries;
                DROP TABLE entries;
                CREATE TABLE entries (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    digest TEXT UNIQUE,
                    body BLOB NOT NULL,
                    encoding INTEGER NOT NULL,
                    etag TEXT NOT NULL,
                    stored_at REAL NOT NULL,
                    expires_at REAL NOT NULL,
                    max_age INTEGER NOT NULL,
                    last_access REAL NOT NULL,
                    size INTEGER NOT NULL
                );
                CREATE INDEX entries_last_access ON entries(last_access);
                CREATE INDEX entries_expires_at ON entries(expires_at);
                CREATE TABLE entry_tags (
                    tag INTEGER NOT NULL,
                    entry INTEGER NOT NULL,
                    PRIMARY KEY (tag, entry)
                ) WITHOUT ROWID;
                CREATE INDEX entry_tags_entry ON entry_tags(entry);
                CREATE TABLE dead_entries (entry INTEGER PRIMARY KEY);
                UPDATE cache_meta SET total_bytes = 0 WHERE id = 1;
                CREATE TRIGGER entries_size_insert AFTER INSERT ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes + NEW.size WHERE id = 1;
                END;
                CREATE TRIGGER entries_size_delete AFTER DELETE ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes - OLD.size WHERE id = 1;
                END;
                CREATE TRIGGER entries_size_update AFTER UPDATE OF size ON entries BEGIN
                    UPDATE cache_meta SET total_bytes = total_bytes - OLD.size + NEW.size WHERE id = 1;
                END;
                """)
        }
        // v5: tags packed in one row per entry (``TagIndex`` turns them around in memory), in
        // the entry's own transaction; no more unpublished rows. Entries go, as in v3.
        migrator.registerMigration("v5") { db in
            try db.execute(sql: """
                DROP TABLE entry_tags;
                DELETE FROM dead_entries;
                DELETE FROM entries;
                UPDATE cache_meta SET total_bytes = 0 WHERE id = 1;
                ALTER TABLE cache_meta ADD COLUMN total_tags INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE entry_tag_sets (
                    entry INTEGER PRIMARY KEY,
                    tags BLOB NOT NULL
                );
                CREATE TRIGGER entry_tag_sets_insert AFTER INSERT ON entry_tag_sets BEGIN
                    UPDATE cache_meta SET total_tags = total_tags + length(NEW.tags) / 8 WHERE id = 1;
                END;
                CREATE TRIGGER entry_tag_sets_delete AFTER DELETE ON entry_tag_sets BEGIN
                    UPDATE cache_meta SET total_tags = total_tags - length(OLD.tags) / 8 WHERE id = 1;
                END;
                """)
        }
        // v6: the CRC-32 of each deflated body, so that a hit is sent as gzip by re-framing the
        // stored deflate data without reading the body again (issue #41). Entries stay: a row
        // without it (NULL) has its CRC computed when it is read.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: "ALTER TABLE entries ADD COLUMN crc32 INTEGER")
        }
        return migrator
    }

    // Hot-path statements, prepared once per connection through `cachedStatement`.
    static let selectEntry = """
        SELECT body, encoding, etag, stored_at, expires_at, max_age, crc32 FROM entries
        WHERE digest = ? AND NOT EXISTS (SELECT 1 FROM dead_entries WHERE entry = entries.id)
        """
    static let entryID = "SELECT id FROM entries WHERE digest = ?"
    static let deleteEntryRow = "DELETE FROM entries WHERE id = ?"
    static let markDead = "INSERT OR IGNORE INTO dead_entries (entry) VALUES (?)"
    static let unmarkDead = "DELETE FROM dead_entries WHERE entry = ?"
    static let insertEntry = """
        INSERT INTO entries (digest, body, encoding, etag, stored_at, expires_at, max_age, last_access, size, crc32)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let insertTagSet = "INSERT INTO entry_tag_sets (entry, tags) VALUES (?, ?)"
    static let tagSet = "SELECT tags FROM entry_tag_sets WHERE entry = ?"
    static let deleteTagSet = "DELETE FROM entry_tag_sets WHERE entry = ?"
    /// The tag sets stored after an id, in id order (``TagIndex/catchUp(_:)``).
    static let tagSetsAfter = "SELECT entry, tags FROM entry_tag_sets WHERE entry > ? ORDER BY entry"
    static let totalTags = "SELECT total_tags FROM cache_meta WHERE id = 1"
    /// Dead entries reclaimed per transaction: each deletes a body (a graph's takes a few
    /// overflow pages) and a tag set.
    static let reclaimBatch = 8
    static let deadRows = "SELECT d.entry FROM dead_entries d JOIN entries e ON e.id = d.entry LIMIT ?"
    static let touchEntry = "UPDATE entries SET last_access = ? WHERE digest = ? AND last_access < ?"
    static let someDead = "SELECT entry FROM dead_entries LIMIT ?"
    static let anyDead = "SELECT EXISTS (SELECT 1 FROM dead_entries)"
    static let totalBytes = "SELECT total_bytes FROM cache_meta WHERE id = 1"
    static let leastRecentlyUsed = "SELECT id, digest FROM entries ORDER BY last_access ASC LIMIT ?"
    /// Bounded: a store drops at most a few expired rows (their tag sets go to the reclaimer).
    static let someExpired = "SELECT id FROM entries WHERE expires_at < ? LIMIT ?"
    static let clearAll = "DELETE FROM dead_entries; DELETE FROM entry_tag_sets; DELETE FROM entries"

    /// Deletes the entry `id`'s row now and marks it for the reclaimer, which deletes its tag set
    /// and takes it out of its own process's ``TagIndex``.
    static func dropEntry(id: Int64, in db: Database) throws {
        try db.cachedStatement(sql: deleteEntryRow).execute(arguments: [id])
        try db.cachedStatement(sql: markDead).execute(arguments: [id])
    }
}
