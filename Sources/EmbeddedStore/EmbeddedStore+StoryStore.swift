import Foundation
import GRDB
import MediaFiles
import SocialDomain

/// Stories: rows in `stories`, files in `<data>/stories/` served at `/stories/...`. Reads
/// leave out expired rows (as the Supabase policy does); ``purgeExpiredStories(now:)`` deletes
/// them with their files.
extension EmbeddedStore: StoryStore {
    static let storyColumns = "s.id, s.author_id, s.media_url, s.media_path, s.media_type, s.created_at, s.expires_at"

    static func decodeStory(_ row: Row) throws -> Story {
        guard let id = UUID(parsing: row[0] as String), let author = UUID(parsing: row[1] as String),
              let path = MediaPath(parsing: row[3] as String, kind: .story), let type = StoryMediaType(rawValue: row[4] as String)
        else { throw StoreDataError.badId }
        return Story(
            id: id, authorId: author, mediaURL: row[2], mediaPath: path, mediaType: type, createdAtMicroseconds: row[5],
            expiresAtMicroseconds: row[6])
    }

    public func activeStories(viewer: Viewer) async throws -> [Story] {
        try await call(.activeStories) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewStories) }
            let now = UnixMicroseconds.from(options.clock.now())
            return try read { db in
                let sql = """
                    SELECT \(Self.storyColumns) FROM stories s JOIN profiles a ON a.id = s.author_id
                    WHERE s.expires_at > ?1
                      AND (s.author_id = ?2 OR s.author_id IN (SELECT followee_id FROM follows WHERE follower_id = ?2 AND deleted_at IS NULL))
                    ORDER BY s.author_id, s.created_at, s.id
                    """
                return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [now, me.lowercased]).map(Self.decodeStory)
            }
        }
    }

    public func stories(ids: [UUID], viewer: Viewer) async throws -> [UUID: Story] {
        try await call(.storiesByID) {
            // Signed-in viewers only, as the SQL stores' stories_read policy (issue 37).
            guard !ids.isEmpty, viewer.userId != nil else { return [:] }
            let now = UnixMicroseconds.from(options.clock.now())
            let keys = Array(Set(ids.map(\.lowercased)))
            return try read { db in
                var result: [UUID: Story] = [:]
                for chunk in keys.chunked(Self.maxKeysPerStatement) {
                    let sql = "SELECT \(Self.storyColumns) FROM stories s JOIN profiles a ON a.id = s.author_id "
                        + "WHERE s.id IN (\(placeholders(chunk.count))) AND s.expires_at > ? AND \(ProfileColumns.visible("a"))"
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(chunk) + [now, viewer.sqlId]) {
                        let story = try Self.decodeStory(row)
                        result[story.id] = story
                    }
                }
                return result
            }
        }
    }

    public func ownActiveStoryExpiries(viewer: Viewer, limit: Int) async throws -> [Int64] {
        try await call(.ownActiveStoryExpiries) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .postStories) }
            let now = UnixMicroseconds.from(options.clock.now())
            return try read { db in
                try Self.activeExpiries(db, author: me, now: now, limit: limit)
            }
        }
    }

    static func activeExpiries(_ db: Database, author: UUID, now: Int64, limit: Int) throws -> [Int64] {
        try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT expires_at FROM stories WHERE author_id = ? AND expires_at > ? ORDER BY expires_at LIMIT ?"),
            arguments: [author.lowercased, now, max(0, limit)])
    }

    public func createStory(mediaURL: String, path: MediaPath, viewer: Viewer) async throws -> Story {
        try await call(.createStory) {
            guard let me = viewer.userId, path.owner == me, path.kind == .story else { throw DomainError.storageNotAuthorized }
            let now = UnixMicroseconds.from(options.clock.now())
            let story = Story(
                id: options.random.uuid(), authorId: me, mediaURL: mediaURL, mediaPath: path, mediaType: path.format.mediaType,
                createdAtMicroseconds: now, expiresAtMicroseconds: now + Story.lifetimeMicroseconds)
            try await pool.write { db in
                // The quota again, in the writing transaction (one writer at a time): concurrent
                // posts cannot pass it between CreateStory's check and this row.
                let active = try Self.activeExpiries(db, author: me, now: now, limit: CreateStory.maxActiveStories)
                if active.count >= CreateStory.maxActiveStories, let oldest = active.first {
                    throw DomainError.tooManyActiveStories(retryAfter: max(1, Int((oldest - now + 999_999) / 1_000_000)))
                }
                try db.execute(
                    sql: """
                        INSERT INTO stories (id, author_id, media_url, media_path, media_type, created_at, expires_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [story.id.lowercased, me.lowercased, mediaURL, path.description, story.mediaType.rawValue,
                                story.createdAtMicroseconds, story.expiresAtMicroseconds])
            }
            return story
        }
    }

    /// Deletes the stories expired before `now`, rows first, then their files (a file whose row
    /// is gone is never served again: the route only serves what is asked by path, and no row
    /// hands the path out any more).
    /// - Returns: how many stories went.
    @discardableResult
    public func purgeExpiredStories(now: Date) async throws -> Int {
        let cutoff = UnixMicroseconds.from(now)
        let paths = try await pool.write { db -> [String] in
            let paths = try String.fetchAll(db, sql: "SELECT media_path FROM stories WHERE expires_at <= ?", arguments: [cutoff])
            try db.execute(sql: "DELETE FROM stories WHERE expires_at <= ?", arguments: [cutoff])
            return paths
        }
        for path in paths.compactMap({ MediaPath(parsing: $0, kind: .story) }) { try? mediaDirectory.remove(path) }
        return paths.count
    }
}
