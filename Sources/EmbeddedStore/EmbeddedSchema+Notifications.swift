import GRDB

/// Stored notifications (issue 54), as migration 20250301004400 keeps them on PostgreSQL: one
/// row per notification, written by triggers in the transaction of the write that causes it.
///
/// - `follows`, an active insert or a restore: `followed` to the followee at the row's
///   `updated_at`; when a pending request of the pair exists (an approval inserts the follow
///   before it deletes the request), `followApproved` to the requester too.
/// - `post_likes` insert: `liked` to the post's author; `comments` insert: `commented`.
/// - `follow_requests`, pending on insert or made pending again: `followRequested` to the owner.
/// - `blocks` insert: the notifications between the two go, both ways.
/// - Never to oneself. `notifications_retention` prunes the recipient's older than
///   ``SocialDomain/NotificationRules/retentionDays`` before the new one, and beyond the newest
///   ``SocialDomain/NotificationRules/perRecipientLimit`` (`EmbeddedSchemaTests` checks the numbers).
///
/// `key` is ``SocialDomain/Activity/notificationKey``: the live notification's id is its base64url,
/// so the stored and the live one are the same notification.
extension EmbeddedSchema {
    static let v17 = """
        CREATE TABLE notifications (
          key           TEXT PRIMARY KEY NOT NULL,
          recipient_id  TEXT NOT NULL,
          kind          TEXT NOT NULL CHECK (kind IN ('followed', 'liked', 'commented', 'followRequested', 'followApproved')),
          actor_id      TEXT NOT NULL,
          post_id       TEXT,
          comment_id    TEXT,
          at_us         INTEGER NOT NULL,
          read_at       INTEGER,
          CONSTRAINT notifications_recipient_fkey FOREIGN KEY (recipient_id) REFERENCES profiles (id) ON DELETE CASCADE,
          CONSTRAINT notifications_actor_fkey FOREIGN KEY (actor_id) REFERENCES profiles (id) ON DELETE CASCADE,
          CONSTRAINT notifications_post_fkey FOREIGN KEY (post_id) REFERENCES posts (id) ON DELETE CASCADE,
          CONSTRAINT notifications_comment_fkey FOREIGN KEY (comment_id) REFERENCES comments (id) ON DELETE CASCADE,
          CONSTRAINT notifications_not_self CHECK (actor_id <> recipient_id),
          CONSTRAINT notifications_key_is_fields CHECK (key = kind || ':' || actor_id || ':' || recipient_id || ':'
            || ifnull(post_id, '') || ':' || ifnull(comment_id, '') || ':' || at_us)
        ) WITHOUT ROWID;
        CREATE INDEX notifications_recipient_idx ON notifications (recipient_id, at_us DESC, key DESC);
        CREATE INDEX notifications_actor_idx ON notifications (actor_id, recipient_id);
        CREATE INDEX notifications_post_idx ON notifications (post_id) WHERE post_id IS NOT NULL;
        CREATE INDEX notifications_comment_idx ON notifications (comment_id) WHERE comment_id IS NOT NULL;

        CREATE TRIGGER notifications_retention AFTER INSERT ON notifications BEGIN
          DELETE FROM notifications
          WHERE recipient_id = NEW.recipient_id
            AND (at_us < NEW.at_us - 90 * 86400000000
                 OR key IN (SELECT key FROM notifications WHERE recipient_id = NEW.recipient_id
                            ORDER BY at_us DESC, key DESC LIMIT -1 OFFSET 1000));
        END;

        \(followsNotifyInsertTrigger)
        CREATE TRIGGER follows_notify_restore AFTER UPDATE OF deleted_at ON follows
          WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL BEGIN
          \(followNotifications)
        END;
        CREATE TRIGGER post_likes_notify AFTER INSERT ON post_likes BEGIN
          INSERT INTO notifications (key, recipient_id, kind, actor_id, post_id, at_us)
          SELECT 'liked:' || NEW.profile_id || ':' || p.author_id || ':' || NEW.post_id || '::' || NEW.created_at,
                 p.author_id, 'liked', NEW.profile_id, NEW.post_id, NEW.created_at
          FROM posts p WHERE p.id = NEW.post_id AND p.author_id <> NEW.profile_id
            AND NOT EXISTS (SELECT 1 FROM notifications n
                            WHERE n.key = 'liked:' || NEW.profile_id || ':' || p.author_id || ':' || NEW.post_id || '::' || NEW.created_at);
        END;
        CREATE TRIGGER comments_notify AFTER INSERT ON comments BEGIN
          INSERT INTO notifications (key, recipient_id, kind, actor_id, post_id, comment_id, at_us)
          SELECT 'commented:' || NEW.author_id || ':' || p.author_id || ':' || NEW.post_id || ':' || NEW.id || ':' || NEW.created_at,
                 p.author_id, 'commented', NEW.author_id, NEW.post_id, NEW.id, NEW.created_at
          FROM posts p WHERE p.id = NEW.post_id AND p.author_id <> NEW.author_id;
        END;
        CREATE TRIGGER follow_requests_notify_insert AFTER INSERT ON follow_requests WHEN NEW.status = 'pending' BEGIN
          \(requestNotification)
        END;
        CREATE TRIGGER follow_requests_notify_again AFTER UPDATE OF status, created_at ON follow_requests
          WHEN NEW.status = 'pending' AND (OLD.status <> 'pending' OR OLD.created_at <> NEW.created_at) BEGIN
          \(requestNotification)
        END;
        CREATE TRIGGER blocks_notify AFTER INSERT ON blocks BEGIN
          DELETE FROM notifications
          WHERE (actor_id = NEW.blocker_id AND recipient_id = NEW.blocked_id)
             OR (actor_id = NEW.blocked_id AND recipient_id = NEW.blocker_id);
        END;
        """

    /// A follow's notifications (in a trigger on `follows`, NEW the follow).
    static let followNotifications = """
          INSERT INTO notifications (key, recipient_id, kind, actor_id, at_us)
          SELECT 'followed:' || NEW.follower_id || ':' || NEW.followee_id || ':::' || NEW.updated_at,
                 NEW.followee_id, 'followed', NEW.follower_id, NEW.updated_at
          WHERE NOT EXISTS (SELECT 1 FROM notifications n
                            WHERE n.key = 'followed:' || NEW.follower_id || ':' || NEW.followee_id || ':::' || NEW.updated_at);
          INSERT INTO notifications (key, recipient_id, kind, actor_id, at_us)
          SELECT 'followApproved:' || NEW.followee_id || ':' || NEW.follower_id || ':::' || NEW.updated_at,
                 NEW.follower_id, 'followApproved', NEW.followee_id, NEW.updated_at
          WHERE EXISTS (SELECT 1 FROM follow_requests r
                        WHERE r.requester_id = NEW.follower_id AND r.target_id = NEW.followee_id AND r.status = 'pending')
            AND NOT EXISTS (SELECT 1 FROM notifications n
                            WHERE n.key = 'followApproved:' || NEW.followee_id || ':' || NEW.follower_id || ':::' || NEW.updated_at);
        """

    /// A pending request's notification (in a trigger on `follow_requests`).
    static let requestNotification = """
          INSERT INTO notifications (key, recipient_id, kind, actor_id, at_us)
          SELECT 'followRequested:' || NEW.requester_id || ':' || NEW.target_id || ':::' || NEW.created_at,
                 NEW.target_id, 'followRequested', NEW.requester_id, NEW.created_at
          WHERE NOT EXISTS (SELECT 1 FROM notifications n
                            WHERE n.key = 'followRequested:' || NEW.requester_id || ':' || NEW.target_id || ':::' || NEW.created_at);
        """

    /// The insert side of a follow's notifications, on its own so the bulk seed can drop it (a
    /// load-test graph notifies nobody) and create it again.
    static var followsNotifyInsertTrigger: String {
        """
        CREATE TRIGGER follows_notify_insert AFTER INSERT ON follows WHEN NEW.deleted_at IS NULL BEGIN
          \(followNotifications)
        END;
        """
    }
}
