import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Story rows through `active_stories()` and plain reads and inserts that RLS decides (it hides
/// expired stories; the database sets the times). The files go wherever the avatars go.
extension PostgresStore: StoryStore {
    static let storyObject = "json_build_object(" + StoryRow.columnNames.map { "'\($0)', s.\($0)" }.joined(separator: ", ") + ")"

    public func activeStories(viewer: Viewer) async throws -> [Story] {
        try await call("activeStories", viewer: viewer) { connection, logger in
            let rows = try await connection.query(
                "select coalesce(json_agg(\(unescaped: Self.storyObject)), '[]')::text from public.active_stories() s", logger: logger)
            return try await Self.decodeJSON([StoryRow].self, from: rows, "activeStories").map { try $0.story() }
        }
    }

    public func stories(ids: [UUID], viewer: Viewer) async throws -> [UUID: Story] {
        let keys = Array(Set(ids))
        guard !keys.isEmpty else { return [:] }
        return try await call("storiesByID", viewer: viewer) { connection, logger in
            var binds = PostgresBindings()
            binds.append(keys)
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "select coalesce(json_agg(\(Self.storyObject)), '[]')::text from public.stories s where s.id = any($1::uuid[])",
                              binds: binds), logger: logger)
            let stories = try await Self.decodeJSON([StoryRow].self, from: rows, "storiesByID").map { try $0.story() }
            return Dictionary(stories.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public func createStory(mediaURL: String, path: StoryMediaPath, viewer: Viewer) async throws -> Story {
        guard let me = viewer.userId, me == path.owner else { throw DomainError.storageNotAuthorized }
        let mediaPath = path.description
        let mediaType = path.format.mediaType.rawValue
        return try await call("createStory", viewer: viewer) { connection, logger in
            let rows = try await connection.query("""
                with s as (insert into public.stories (author_id, media_url, media_path, media_type)
                           values (auth.uid(), \(mediaURL), \(mediaPath), \(mediaType)) returning *)
                select \(unescaped: Self.storyObject)::text from s
                """, logger: logger)
            return try await Self.decodeJSON(StoryRow.self, from: rows, "createStory").story()
        }
    }
}
