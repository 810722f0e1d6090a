import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Story rows through `active_stories()`, plain reads that RLS decides (it hides expired stories
/// and shows stories to signed-in callers only), and `create_story()`, the only way a row is
/// written (migration 20250301002000: it checks the file, its URL and the quota; the database
/// sets the times). The files go wherever the avatars go.
extension PostgresStore: StoryStore {
    static let storyObject = "json_build_object(" + StoryRow.columnNames.map { "'\($0)', s.\($0)" }.joined(separator: ", ") + ")"

    public func activeStories(viewer: Viewer) async throws -> [Story] {
        try await read("activeStories", viewer: viewer) { connection, logger in
            let rows = try await connection.query(
                "select coalesce(json_agg(\(unescaped: Self.storyObject)), '[]')::text from public.active_stories() s", logger: logger)
            return try await Self.decodeJSON([StoryRow].self, from: rows, "activeStories").map { try $0.story() }
        }
    }

    public func stories(ids: [UUID], viewer: Viewer) async throws -> [UUID: Story] {
        let keys = Array(Set(ids))
        // Signed-in viewers only (stories_read is for `authenticated`): no call for anon.
        guard !keys.isEmpty, viewer.userId != nil else { return [:] }
        return try await read("storiesByID", viewer: viewer) { connection, logger in
            var binds = PostgresBindings()
            binds.append(keys)
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "select coalesce(json_agg(\(Self.storyObject)), '[]')::text from public.stories s where s.id = any($1::uuid[])",
                              binds: binds), logger: logger)
            let stories = try await Self.decodeJSON([StoryRow].self, from: rows, "storiesByID").map { try $0.story() }
            return Dictionary(stories.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The viewer's own unexpired stories' expiry times, soonest first (`stories_author_expires_idx`).
    public func ownActiveStoryExpiries(viewer: Viewer, limit: Int) async throws -> [Int64] {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .postStories) }
        let limit = max(0, limit)
        return try await read("ownActiveStoryExpiries", viewer: viewer) { connection, logger in
            let rows = try await connection.query("""
                select coalesce(json_agg(e order by e), '[]')::text
                from (select (extract(epoch from s.expires_at) * 1000000)::int8 as e from public.stories s
                      where s.author_id = auth.uid() and s.expires_at > now() order by s.expires_at limit \(limit)) t
                """, logger: logger)
            return try await Self.decodeJSON([Int64].self, from: rows, "ownActiveStoryExpiries")
        }
    }

    /// `create_story(media_path, media_type, media_url)`. The function wants the file's row in
    /// `storage.objects` (Storage writes it on upload); a story file this gateway keeps itself
    /// (no `SUPABASE_URL`) has none, so its row is recorded first, in the same transaction, as the
    /// caller (the bucket's owner-only policies apply). A PostgREST client cannot do that: the
    /// `storage` schema is not exposed.
    public func createStory(mediaURL: String, path: MediaPath, viewer: Viewer) async throws -> Story {
        guard let me = viewer.userId, me == path.owner, path.kind == .story else { throw DomainError.storageNotAuthorized }
        let mediaPath = path.description
        let mediaType = path.format.mediaType.rawValue
        return try await call("createStory", viewer: viewer) { connection, logger in
            try await connection.query("""
                insert into storage.objects (bucket_id, name)
                select 'stories', \(mediaPath)
                where not exists (select 1 from storage.objects o where o.bucket_id = 'stories' and o.name = \(mediaPath))
                """, logger: logger)
            let rows = try await connection.query("""
                select \(unescaped: Self.storyObject)::text from public.create_story(\(mediaPath), \(mediaType), \(mediaURL)) s
                """, logger: logger)
            return try await Self.decodeJSON(StoryRow.self, from: rows, "createStory").story()
        }
    }
}
