import GRDB

/// The migrations: the same tables, constraints and indexes as the Supabase schema
/// (`shared/reference/supabase-wire.md` §7), in SQLite terms.
///
/// Each migration is literal SQL, frozen once released: a database applies a migration once,
/// so its text must say what was applied, whatever the domain's constants say today (they were
/// interpolated once, and an old migration's text then changed with a constant). The bounds
/// are the domain's limits as bytes (``UpdateProfile/maxBytesPerCharacter`` per allowed
/// character); `EmbeddedSchemaTests` checks that each table admits the domain's limits, so a
/// limit raised in the domain needs a new migration here.
///
/// Differences, all deliberate: ids are lower-case UUID text; times are integer microseconds
/// since 1970 UTC (exact keyset ordering, the precision of `timestamptz`); the handle regex is
/// spelled with GLOB; row-level security is emulated in the store's queries; counters are kept
/// by triggers in the writing transaction, like `follows_maintain_counts`.
enum EmbeddedSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_profiles_follows") { db in
            try db.execute(sql: v1)
        }
        // Foreign keys are off while it runs (GRDB's default, checked when it ends): the table is
        // rebuilt under follows' references, as SQLite's ALTER TABLE documentation prescribes.
        migrator.registerMigration("v2_profile_text_bytes") { db in
            try db.execute(sql: v2)
        }
        // Sync of a viewer's own follows by change time (SyncFollows), undone rows included.
        migrator.registerMigration("v3_follows_sync_index") { db in
            try db.execute(sql: "CREATE INDEX follows_follower_sync_idx ON follows (follower_id, updated_at, id)")
        }
        // Seed 000's sendCount: a stored counter, never written through the gateway.
        migrator.registerMigration("v4_profiles_send_count") { db in
            try db.execute(sql: "ALTER TABLE profiles ADD COLUMN send_count INTEGER NOT NULL DEFAULT 0 CHECK (send_count >= 0)")
        }
        // Seed 000's owner-only fields, in a table of their own as on Supabase (migration 001000).
        migrator.registerMigration("v5_profile_private") { db in
            try db.execute(sql: v5)
        }
        // Posts, likes and comments (issue 19), as on Supabase (migrations 001300 onwards).
        migrator.registerMigration("v6_posts") { db in
            try db.execute(sql: v6)
        }
        // Stories (issue 19): 24-hour rows, their files in the data folder's stories/.
        migrator.registerMigration("v7_stories") { db in
            try db.execute(sql: """
                CREATE TABLE stories (
                  id          TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
                  author_id   TEXT NOT NULL,
                  media_url   TEXT NOT NULL,
                  media_path  TEXT NOT NULL,
                  media_type  TEXT NOT NULL CHECK (media_type IN ('image', 'video')),
                  created_at  INTEGER NOT NULL,
                  expires_at  INTEGER NOT NULL,
                  CONSTRAINT stories_lifetime CHECK (expires_at = created_at + 86400000000),
                  CONSTRAINT stories_author_id_fkey FOREIGN KEY (author_id) REFERENCES profiles (id) ON DELETE CASCADE
                );
                CREATE INDEX stories_author_expires_idx ON stories (author_id, expires_at);
                CREATE INDEX stories_expires_idx ON stories (expires_at);
                """)
        }
        // Accounts (issue 20): the embedded store is its own identity provider.
        migrator.registerMigration("v8_accounts") { db in
            try db.execute(sql: """
                CREATE TABLE accounts (
                  id             TEXT PRIMARY KEY NOT NULL,
                  email          TEXT NOT NULL UNIQUE CHECK (email = lower(email)),
                  password_hash  BLOB NOT NULL,
                  salt           BLOB NOT NULL,
                  display_name   TEXT,
                  video_quality  TEXT NOT NULL DEFAULT 'auto' CHECK (video_quality IN ('auto', 'high', 'medium', 'low')),
                  autoplay       INTEGER NOT NULL DEFAULT 1 CHECK (autoplay IN (0, 1)),
                  verified_at    INTEGER,
                  created_at     INTEGER NOT NULL,
                  CONSTRAINT accounts_id_fkey FOREIGN KEY (id) REFERENCES profiles (id) ON DELETE CASCADE
                );
                CREATE TABLE account_sessions (
                  id          TEXT PRIMARY KEY NOT NULL,
                  account_id  TEXT NOT NULL,
                  created_at  INTEGER NOT NULL,
                  ended_at    INTEGER,
                  CONSTRAINT account_sessions_account_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
                );
                CREATE INDEX account_sessions_account_idx ON account_sessions (account_id);
                -- refresh tokens by their SHA-256 (never the token): single use, then replaced
                CREATE TABLE refresh_tokens (
                  token_hash  TEXT PRIMARY KEY NOT NULL,
                  session_id  TEXT NOT NULL,
                  expires_at  INTEGER NOT NULL,
                  used_at     INTEGER,
                  CONSTRAINT refresh_tokens_session_fkey FOREIGN KEY (session_id) REFERENCES account_sessions (id) ON DELETE CASCADE
                );
                CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);
                -- password-reset tokens by their SHA-256: single use, an hour
                CREATE TABLE password_resets (
                  token_hash  TEXT PRIMARY KEY NOT NULL,
                  account_id  TEXT NOT NULL,
                  expires_at  INTEGER NOT NULL,
                  used_at     INTEGER,
                  CONSTRAINT password_resets_account_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
                );
                """)
        }
        // Follow requests for private profiles (issue 40): one row per (requester, target), pending
        // until answered; a declined row stays, with its time, so the requester cannot ask again
        // at once. The owner's list is newest first by the partial index.
        migrator.registerMigration("v9_follow_requests") { db in
            try db.execute(sql: """
                CREATE TABLE follow_requests (
                  requester_id  TEXT NOT NULL,
                  target_id     TEXT NOT NULL,
                  status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'declined')),
                  created_at    INTEGER NOT NULL,
                  decided_at    INTEGER,
                  PRIMARY KEY (requester_id, target_id),
                  CONSTRAINT follow_requests_requester_fkey FOREIGN KEY (requester_id) REFERENCES profiles (id) ON DELETE CASCADE,
                  CONSTRAINT follow_requests_target_fkey FOREIGN KEY (target_id) REFERENCES profiles (id) ON DELETE CASCADE,
                  CONSTRAINT follow_requests_not_self CHECK (requester_id <> target_id)
                ) WITHOUT ROWID;
                CREATE INDEX follow_requests_target_pending_idx
                  ON follow_requests (target_id, created_at DESC, requester_id DESC) WHERE status = 'pending';
                """)
        }
        // Blocks (issue 40): one row per (blocker, blocked); every read checks both ways by the
        // primary key. The blocker's list is newest first by its own index.
        migrator.registerMigration("v10_blocks") { db in
            try db.execute(sql: """
                CREATE TABLE blocks (
                  blocker_id  TEXT NOT NULL,
                  blocked_id  TEXT NOT NULL,
                  created_at  INTEGER NOT NULL,
                  PRIMARY KEY (blocker_id, blocked_id),
                  CONSTRAINT blocks_blocker_fkey FOREIGN KEY (blocker_id) REFERENCES profiles (id) ON DELETE CASCADE,
                  CONSTRAINT blocks_blocked_fkey FOREIGN KEY (blocked_id) REFERENCES profiles (id) ON DELETE CASCADE,
                  CONSTRAINT blocks_not_self CHECK (blocker_id <> blocked_id)
                ) WITHOUT ROWID;
                CREATE INDEX blocks_blocker_page_idx ON blocks (blocker_id, created_at DESC, blocked_id DESC);
                """)
        }
        // Two-hop reads (issue 40: followed-by and suggestions): the active pairs by follower,
        // covering, so that walking the follows of the viewer's follows reads the index alone.
        migrator.registerMigration("v11_follows_active_pair_index") { db in
            try db.execute(sql: """
                CREATE INDEX follows_active_pair_idx ON follows (follower_id, followee_id) WHERE deleted_at IS NULL;
                CREATE INDEX follows_active_followee_idx ON follows (followee_id, follower_id) WHERE deleted_at IS NULL;
                """)
        }
        // Whether a viewer has any block either way (``ViewerRelationStore``): the primary key
        // finds the blocker's rows; this finds the blocked one's.
        migrator.registerMigration("v12_blocks_blocked_index") { db in
            try db.execute(sql: "CREATE INDEX blocks_blocked_idx ON blocks (blocked_id)")
        }
        // Profile search through indexes (issue 51): trigrams (FTS5) for 3+ characters, bigrams
        // for 2, a covering index for the order (EmbeddedSchema+Search.swift).
        migrator.registerMigration("v13_profile_search") { db in
            try requireTrigramTokenizer(db)
            try db.execute(sql: v13)
        }
        // The viewer's own pending follow requests, newest first (issue 54: `sentFollowRequests`),
        // as the owner's list reads follow_requests_target_pending_idx.
        migrator.registerMigration("v14_follow_requests_requester_index") { db in
            try db.execute(sql: """
                CREATE INDEX follow_requests_requester_pending_idx
                  ON follow_requests (requester_id, created_at DESC, target_id DESC) WHERE status = 'pending';
                """)
        }
        // A post's likers, newest like first (issue 54: `Post.likers`).
        migrator.registerMigration("v15_post_likes_post_index") { db in
            try db.execute(sql: "CREATE INDEX post_likes_post_idx ON post_likes (post_id, created_at DESC, profile_id DESC)")
        }
        // Suggestions for a viewer who follows nobody yet (issue 54): the most followed public
        // profiles, read in order.
        migrator.registerMigration("v16_profiles_popular_index") { db in
            try db.execute(sql: "CREATE INDEX profiles_popular_idx ON profiles (follower_count DESC, id) WHERE is_public = 1")
        }
        // Stored notifications (issue 54): EmbeddedSchema+Notifications.swift.
        migrator.registerMigration("v17_notifications") { db in
            try db.execute(sql: v17)
        }
        return migrator
    }

    /// Posts, their likes and comments, and the counters kept with them: `profiles.post_count`,
    /// `posts.like_count` and `posts.comment_count`, each moved by a trigger in the writing
    /// transaction. Image URLs are a JSON array. Content is bounded in bytes like the profile
    /// texts (the domain counts characters, ``PostRules``).
    static let v6 = """
        ALTER TABLE profiles ADD COLUMN post_count INTEGER NOT NULL DEFAULT 0 CHECK (post_count >= 0);
        CREATE TABLE posts (
          id             TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
          author_id      TEXT NOT NULL,
          content        TEXT NOT NULL CHECK (length(CAST(content AS BLOB)) BETWEEN 1 AND 64000),
          image_urls     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(image_urls) AND json_array_length(image_urls) <= 4),
          like_count     INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0),
          comment_count  INTEGER NOT NULL DEFAULT 0 CHECK (comment_count >= 0),
          created_at     INTEGER NOT NULL,
          updated_at     INTEGER NOT NULL,
          CONSTRAINT posts_author_id_fkey FOREIGN KEY (author_id) REFERENCES profiles (id) ON DELETE CASCADE
        );
        -- a profile's posts and each source of a feed, newest first: the feed walks it per source
        CREATE INDEX posts_author_created_idx ON posts (author_id, created_at DESC, id DESC);
        CREATE TABLE post_likes (
          post_id     TEXT NOT NULL,
          profile_id  TEXT NOT NULL,
          created_at  INTEGER NOT NULL,
          PRIMARY KEY (post_id, profile_id),
          CONSTRAINT post_likes_post_id_fkey FOREIGN KEY (post_id) REFERENCES posts (id) ON DELETE CASCADE,
          CONSTRAINT post_likes_profile_id_fkey FOREIGN KEY (profile_id) REFERENCES profiles (id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX post_likes_profile_idx ON post_likes (profile_id, post_id);
        CREATE TABLE comments (
          id          TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
          post_id     TEXT NOT NULL,
          author_id   TEXT NOT NULL,
          content     TEXT NOT NULL CHECK (length(CAST(content AS BLOB)) BETWEEN 1 AND 16000),
          created_at  INTEGER NOT NULL,
          CONSTRAINT comments_post_id_fkey FOREIGN KEY (post_id) REFERENCES posts (id) ON DELETE CASCADE,
          CONSTRAINT comments_author_id_fkey FOREIGN KEY (author_id) REFERENCES profiles (id) ON DELETE CASCADE
        );
        CREATE INDEX comments_post_created_idx ON comments (post_id, created_at, id);
        CREATE INDEX comments_author_idx ON comments (author_id);
        CREATE TRIGGER posts_count_insert AFTER INSERT ON posts BEGIN
          UPDATE profiles SET post_count = post_count + 1 WHERE id = NEW.author_id;
        END;
        CREATE TRIGGER posts_count_delete AFTER DELETE ON posts BEGIN
          UPDATE profiles SET post_count = post_count - 1 WHERE id = OLD.author_id;
        END;
        CREATE TRIGGER post_likes_count_insert AFTER INSERT ON post_likes BEGIN
          UPDATE posts SET like_count = like_count + 1 WHERE id = NEW.post_id;
        END;
        CREATE TRIGGER post_likes_count_delete AFTER DELETE ON post_likes BEGIN
          UPDATE posts SET like_count = like_count - 1 WHERE id = OLD.post_id;
        END;
        CREATE TRIGGER comments_count_insert AFTER INSERT ON comments BEGIN
          UPDATE posts SET comment_count = comment_count + 1 WHERE id = NEW.post_id;
        END;
        CREATE TRIGGER comments_count_delete AFTER DELETE ON comments BEGIN
          UPDATE posts SET comment_count = comment_count - 1 WHERE id = OLD.post_id;
        END;
        """

    /// The owner-only fields (``ProfileOwnerDetails``): a row per profile that has any, written
    /// by the owner (ZIP, grade scales) or the operator (premium), read only for the owner.
    static let v5 = """
        CREATE TABLE profile_private (
          id                               TEXT PRIMARY KEY NOT NULL,
          home_zip                         TEXT,
          preferred_grade_scale_boulder    TEXT,
          preferred_grade_scale_route      TEXT,
          premium_expires_at               INTEGER,
          premium_product_id               TEXT,
          premium_original_transaction_id  TEXT,
          updated_at                       INTEGER NOT NULL,
          CONSTRAINT profile_private_id_fkey FOREIGN KEY (id) REFERENCES profiles (id) ON DELETE CASCADE,
          CONSTRAINT profile_private_home_zip_format CHECK (home_zip IS NULL OR (length(home_zip) BETWEEN 2 AND 10
            AND home_zip GLOB '[A-Za-z0-9]*' AND home_zip NOT GLOB '*[^A-Za-z0-9 -]*')),
          CONSTRAINT profile_private_boulder_bytes CHECK (preferred_grade_scale_boulder IS NULL
            OR length(CAST(preferred_grade_scale_boulder AS BLOB)) <= 640),
          CONSTRAINT profile_private_route_bytes CHECK (preferred_grade_scale_route IS NULL
            OR length(CAST(preferred_grade_scale_route AS BLOB)) <= 640),
          CONSTRAINT profile_private_premium_whole CHECK ((premium_expires_at IS NULL) = (premium_product_id IS NULL)
            AND (premium_product_id IS NULL) = (premium_original_transaction_id IS NULL))
        )
        """

    /// The profile text fields bounded in UTF-8 bytes, not code points: the domain counts
    /// user-visible characters (``UpdateProfile``), which a code-point limit would refuse, and the
    /// bytes bound it also applies is what the table can check. SQLite cannot change a
    /// constraint, so `profiles` is rebuilt: new table, copy, drop, rename, indexes again; the
    /// counter triggers on `follows` name `profiles`, so they go first and come back last (a
    /// rename refuses to leave a trigger naming a missing table).
    static let v2 = """
        DROP TRIGGER follows_count_insert;
        DROP TRIGGER follows_count_unfollow;
        DROP TRIGGER follows_count_restore;
        DROP TRIGGER follows_count_delete;
        CREATE TABLE profiles_v2 (
          id               TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
          handle           TEXT NOT NULL,
          display_name     TEXT,
          bio              TEXT,
          photo_url        TEXT,
          home_gym         TEXT,
          climbing_since   TEXT CHECK (climbing_since IS NULL OR climbing_since GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
          favorite_style   TEXT,
          is_public        INTEGER NOT NULL DEFAULT 1 CHECK (is_public IN (0, 1)),
          follower_count   INTEGER NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
          following_count  INTEGER NOT NULL DEFAULT 0 CHECK (following_count >= 0),
          created_at       INTEGER NOT NULL,
          updated_at       INTEGER NOT NULL,
          CONSTRAINT profiles_handle_format CHECK (length(handle) BETWEEN 3 AND 30
            AND handle GLOB '[A-Za-z]*' AND handle NOT GLOB '*[^A-Za-z0-9_]*'),
          CONSTRAINT profiles_display_name_bytes CHECK (display_name IS NULL OR length(CAST(display_name AS BLOB)) <= 1600),
          CONSTRAINT profiles_bio_bytes CHECK (bio IS NULL OR length(CAST(bio AS BLOB)) <= 8960),
          CONSTRAINT profiles_home_gym_bytes CHECK (home_gym IS NULL OR length(CAST(home_gym AS BLOB)) <= 3200),
          CONSTRAINT profiles_favorite_style_bytes CHECK (favorite_style IS NULL OR length(CAST(favorite_style AS BLOB)) <= 3200)
        );
        INSERT INTO profiles_v2 SELECT id, handle, display_name, bio, photo_url, home_gym, climbing_since, favorite_style,
          is_public, follower_count, following_count, created_at, updated_at FROM profiles;
        DROP TABLE profiles;
        ALTER TABLE profiles_v2 RENAME TO profiles;
        CREATE UNIQUE INDEX profiles_handle_lower_key ON profiles (lower(handle));
        CREATE INDEX profiles_handle_id_idx ON profiles (lower(handle), id) WHERE is_public = 1;
        CREATE TRIGGER follows_count_insert AFTER INSERT ON follows WHEN NEW.deleted_at IS NULL BEGIN
          UPDATE profiles SET following_count = following_count + 1 WHERE id = NEW.follower_id;
          UPDATE profiles SET follower_count = follower_count + 1 WHERE id = NEW.followee_id;
        END;
        CREATE TRIGGER follows_count_unfollow AFTER UPDATE OF deleted_at ON follows
          WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL BEGIN
          UPDATE profiles SET following_count = following_count - 1 WHERE id = NEW.follower_id;
          UPDATE profiles SET follower_count = follower_count - 1 WHERE id = NEW.followee_id;
        END;
        CREATE TRIGGER follows_count_restore AFTER UPDATE OF deleted_at ON follows
          WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL BEGIN
          UPDATE profiles SET following_count = following_count + 1 WHERE id = NEW.follower_id;
          UPDATE profiles SET follower_count = follower_count + 1 WHERE id = NEW.followee_id;
        END;
        CREATE TRIGGER follows_count_delete AFTER DELETE ON follows WHEN OLD.deleted_at IS NULL BEGIN
          UPDATE profiles SET following_count = following_count - 1 WHERE id = OLD.follower_id;
          UPDATE profiles SET follower_count = follower_count - 1 WHERE id = OLD.followee_id;
        END;
        """

    static let v1 = """
        CREATE TABLE profiles (
          id               TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
          handle           TEXT NOT NULL,
          display_name     TEXT,
          bio              TEXT,
          photo_url        TEXT,
          home_gym         TEXT,
          climbing_since   TEXT CHECK (climbing_since IS NULL OR climbing_since GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
          favorite_style   TEXT,
          is_public        INTEGER NOT NULL DEFAULT 1 CHECK (is_public IN (0, 1)),
          follower_count   INTEGER NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
          following_count  INTEGER NOT NULL DEFAULT 0 CHECK (following_count >= 0),
          created_at       INTEGER NOT NULL,
          updated_at       INTEGER NOT NULL,
          CONSTRAINT profiles_handle_format CHECK (length(handle) BETWEEN 3 AND 30
            AND handle GLOB '[A-Za-z]*' AND handle NOT GLOB '*[^A-Za-z0-9_]*'),
          CONSTRAINT profiles_display_name_len CHECK (display_name IS NULL OR length(display_name) <= 50),
          CONSTRAINT profiles_bio_len CHECK (bio IS NULL OR length(bio) <= 280)
        );
        -- handles are unique case-insensitively; this index also orders search results
        CREATE UNIQUE INDEX profiles_handle_lower_key ON profiles (lower(handle));
        -- keyset for search results ordered by (lower(handle), id), public profiles only
        CREATE INDEX profiles_handle_id_idx ON profiles (lower(handle), id) WHERE is_public = 1;

        CREATE TABLE follows (
          id           TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
          follower_id  TEXT NOT NULL,
          followee_id  TEXT NOT NULL,
          created_at   INTEGER NOT NULL,
          updated_at   INTEGER NOT NULL,
          deleted_at   INTEGER,
          CONSTRAINT follows_follower_id_fkey FOREIGN KEY (follower_id) REFERENCES profiles (id) ON DELETE CASCADE,
          CONSTRAINT follows_followee_id_fkey FOREIGN KEY (followee_id) REFERENCES profiles (id) ON DELETE CASCADE,
          CONSTRAINT follows_pair_key UNIQUE (follower_id, followee_id),
          CONSTRAINT follows_not_self CHECK (follower_id <> followee_id)
        );
        -- keyset pages: followers of X / following of X, newest first, active rows only
        CREATE INDEX follows_followee_page_idx ON follows (followee_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
        CREATE INDEX follows_follower_page_idx ON follows (follower_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

        -- counters change in the same transaction as the follow they count
        CREATE TRIGGER follows_count_insert AFTER INSERT ON follows WHEN NEW.deleted_at IS NULL BEGIN
          UPDATE profiles SET following_count = following_count + 1 WHERE id = NEW.follower_id;
          UPDATE profiles SET follower_count = follower_count + 1 WHERE id = NEW.followee_id;
        END;
        CREATE TRIGGER follows_count_unfollow AFTER UPDATE OF deleted_at ON follows
          WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL BEGIN
          UPDATE profiles SET following_count = following_count - 1 WHERE id = NEW.follower_id;
          UPDATE profiles SET follower_count = follower_count - 1 WHERE id = NEW.followee_id;
        END;
        CREATE TRIGGER follows_count_restore AFTER UPDATE OF deleted_at ON follows
          WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL BEGIN
          UPDATE profiles SET following_count = following_count + 1 WHERE id = NEW.follower_id;
          UPDATE profiles SET follower_count = follower_count + 1 WHERE id = NEW.followee_id;
        END;
        CREATE TRIGGER follows_count_delete AFTER DELETE ON follows WHEN OLD.deleted_at IS NULL BEGIN
          UPDATE profiles SET following_count = following_count - 1 WHERE id = OLD.follower_id;
          UPDATE profiles SET follower_count = follower_count - 1 WHERE id = OLD.followee_id;
        END;
        """

    /// The post-count trigger, on its own so the bulk seed can drop it, set counters directly and
    /// create it again (v6 carries its own frozen copy).
    static let postsCountInsertTrigger = """
        CREATE TRIGGER posts_count_insert AFTER INSERT ON posts BEGIN
          UPDATE profiles SET post_count = post_count + 1 WHERE id = NEW.author_id;
        END;
        """

    /// The insert-side counter trigger, on its own so the bulk seed can drop it, set counters
    /// directly and create it again (v1 and v2 carry their own frozen copies).
    static let insertCounterTrigger = """
        CREATE TRIGGER follows_count_insert AFTER INSERT ON follows WHEN NEW.deleted_at IS NULL BEGIN
          UPDATE profiles SET following_count = following_count + 1 WHERE id = NEW.follower_id;
          UPDATE profiles SET follower_count = follower_count + 1 WHERE id = NEW.followee_id;
        END;
        """
}
