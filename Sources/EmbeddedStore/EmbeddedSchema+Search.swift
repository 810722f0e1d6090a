import GRDB

/// The profile search's indexes (issue 51): seed 000's search read through indexes instead of a
/// scan that lower-cased every profile's handle and name in Swift.
///
/// - `profile_search`: one row per **public** profile, its handle and display name in lower case
///   (`handle_key`: SQLite's `lower()`, exact for the ASCII handles; `name_key`: Swift's
///   lowercasing through GRDB's `swiftLowercaseString`, as the search compared before; `''` when
///   there is none). `key` is an `INTEGER PRIMARY KEY`, so it survives `VACUUM` (a rowid
///   that is not one may be renumbered), and the two indexes below name rows by it.
///   `profile_search_order_idx` covers the search order (handle, id) with the name, so a walk
///   in that order reads the index alone.
/// - `profile_search_trigrams`: FTS5 with the trigram tokenizer (SQLite 3.34+), case-sensitive
///   since both sides are lower-cased already: a quoted phrase of 3+ characters matches exactly
///   the rows containing it, as `instr`. Contentless: the text is in `profile_search`.
/// - `profile_search_bigrams`: every distinct pair of consecutive characters of either key, for
///   2-character queries, which a trigram index cannot serve (seed 001 allows them). Made in
///   SQL from `search_positions` (1...4096), since trigger bodies may not use a recursive CTE;
///   `profile_search`'s CHECK keeps every key within it (a display name is at most 1,600 bytes,
///   and lowercasing at most doubles its characters).
///
/// Triggers keep all of it in the writing transaction: `profiles` -> `profile_search` (insert,
/// delete, and an update of the handle, the name or `is_public`; a counter update does not fire
/// it) -> the trigram and bigram indexes. The migration fills them from the existing profiles.
extension EmbeddedSchema {
    /// Fails with a message an operator can act on when this SQLite has no FTS5 trigram
    /// tokenizer (3.34 and newer have it; Debian bookworm's is 3.40), instead of the migration's
    /// "no such module" halfway.
    /// - Throws: ``SearchIndexUnavailable``.
    static func requireTrigramTokenizer(_ db: Database) throws {
        do {
            try db.execute(sql: """
                CREATE VIRTUAL TABLE temp.trigram_probe USING fts5(x, tokenize='trigram case_sensitive 1');
                DROP TABLE temp.trigram_probe;
                """)
        } catch {
            throw SearchIndexUnavailable(sqliteVersion: try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "unknown")
        }
    }

    static let v13 = """
        CREATE TABLE search_positions (i INTEGER PRIMARY KEY);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4096)
        INSERT INTO search_positions (i) SELECT i FROM n;

        CREATE TABLE profile_search (
          key         INTEGER PRIMARY KEY,
          profile_id  TEXT NOT NULL UNIQUE,
          handle_key  TEXT NOT NULL CHECK (length(handle_key) <= 4096),
          name_key    TEXT NOT NULL CHECK (length(name_key) <= 4096)
        );
        CREATE INDEX profile_search_order_idx ON profile_search (handle_key, profile_id, name_key);
        CREATE VIRTUAL TABLE profile_search_trigrams USING fts5(
          handle_key, name_key, content='', tokenize='trigram case_sensitive 1');
        CREATE TABLE profile_search_bigrams (
          gram  TEXT NOT NULL,
          key   INTEGER NOT NULL,
          PRIMARY KEY (gram, key)
        ) WITHOUT ROWID;

        CREATE TRIGGER profile_search_indexed AFTER INSERT ON profile_search BEGIN
          INSERT INTO profile_search_trigrams (rowid, handle_key, name_key) VALUES (NEW.key, NEW.handle_key, NEW.name_key);
          INSERT INTO profile_search_bigrams (gram, key)
            SELECT substr(NEW.handle_key, i, 2), NEW.key FROM search_positions WHERE i < length(NEW.handle_key)
            UNION SELECT substr(NEW.name_key, i, 2), NEW.key FROM search_positions WHERE i < length(NEW.name_key);
        END;
        CREATE TRIGGER profile_search_unindexed AFTER DELETE ON profile_search BEGIN
          INSERT INTO profile_search_trigrams (profile_search_trigrams, rowid, handle_key, name_key)
            VALUES ('delete', OLD.key, OLD.handle_key, OLD.name_key);
          DELETE FROM profile_search_bigrams WHERE key = OLD.key AND gram IN (
            SELECT substr(OLD.handle_key, i, 2) FROM search_positions WHERE i < length(OLD.handle_key)
            UNION SELECT substr(OLD.name_key, i, 2) FROM search_positions WHERE i < length(OLD.name_key));
        END;

        CREATE TRIGGER profiles_search_insert AFTER INSERT ON profiles WHEN NEW.is_public = 1 BEGIN
          INSERT INTO profile_search (profile_id, handle_key, name_key)
            VALUES (NEW.id, lower(NEW.handle), coalesce(swiftLowercaseString(NEW.display_name), ''));
        END;
        CREATE TRIGGER profiles_search_update AFTER UPDATE OF handle, display_name, is_public ON profiles BEGIN
          DELETE FROM profile_search WHERE profile_id = OLD.id;
          INSERT INTO profile_search (profile_id, handle_key, name_key)
            SELECT NEW.id, lower(NEW.handle), coalesce(swiftLowercaseString(NEW.display_name), '') WHERE NEW.is_public = 1;
        END;
        CREATE TRIGGER profiles_search_delete AFTER DELETE ON profiles BEGIN
          DELETE FROM profile_search WHERE profile_id = OLD.id;
        END;

        INSERT INTO profile_search (profile_id, handle_key, name_key)
          SELECT id, lower(handle), coalesce(swiftLowercaseString(display_name), '') FROM profiles WHERE is_public = 1
          ORDER BY lower(handle);
        """
}

/// The SQLite library cannot hold the search's trigram index.
struct SearchIndexUnavailable: Error, CustomStringConvertible {
    var sqliteVersion: String
    var description: String {
        "the embedded store's profile search needs SQLite 3.34 or newer with FTS5 (its trigram tokenizer); "
            + "this process uses SQLite \(sqliteVersion)"
    }
}
