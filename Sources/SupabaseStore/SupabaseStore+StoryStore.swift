import Foundation
import SocialDomain
import SupabaseSchema

/// Stories over PostgREST and Storage (migrations 20250301001500, 002000): `active_stories` for
/// the tray, plain reads that RLS decides (it hides expired rows, and shows stories to signed-in
/// callers only), `create_story` for the row (the only way to write one); the files are
/// ``MediaStore``'s (the public `stories` bucket).
extension SupabaseStore: StoryStore {
    static let storyColumns = StoryRow.columnNames.joined(separator: ",")

    /// `POST /rest/v1/rpc/active_stories`.
    public func activeStories(viewer: Viewer) async throws -> [Story] {
        try await call("activeStories") {
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/active_stories", query: [("select", Self.storyColumns)],
                headers: [("Content-Type", "application/json")], body: Data("{}".utf8), idempotent: true, operation: "activeStories")
            return try decode([StoryRow].self, try await rest(request, viewer: viewer), "activeStories").map { try $0.story() }
        }
    }

    /// `GET /rest/v1/stories?id=in.(...)`.
    public func stories(ids: [UUID], viewer: Viewer) async throws -> [UUID: Story] {
        try await call("storiesByID") {
            var result: [UUID: Story] = [:]
            // Signed-in viewers only (stories_read is for `authenticated`): no request for anon.
            guard viewer.userId != nil else { return result }
            for chunk in Array(Set(ids)).chunked(Self.maxKeysPerRequest) {
                let request = SupabaseRequest(
                    method: .get, service: .rest, path: "/rest/v1/stories",
                    query: [("select", Self.storyColumns), ("id", PostgRESTQuery.inList(chunk.map(\.lowercased)))],
                    idempotent: true, operation: "storiesByID")
                for row in try decode([StoryRow].self, try await rest(request, viewer: viewer), "storiesByID") {
                    let story = try row.story()
                    result[story.id] = story
                }
            }
            return result
        }
    }

    /// `GET /rest/v1/stories?select=expires_at&author_id=eq.<me>&order=expires_at.asc&limit=<n>`
    /// (RLS leaves out expired rows).
    public func ownActiveStoryExpiries(viewer: Viewer, limit: Int) async throws -> [Int64] {
        try await call("ownActiveStoryExpiries") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .postStories) }
            let request = SupabaseRequest(
                method: .get, service: .rest, path: "/rest/v1/stories",
                query: [("select", "expires_at"), ("author_id", "eq.\(me.lowercased)"), ("order", "expires_at.asc"),
                        ("limit", "\(max(0, limit))")],
                idempotent: true, operation: "ownActiveStoryExpiries")
            return try decode([StoryExpiryRow].self, try await rest(request, viewer: viewer), "ownActiveStoryExpiries").map {
                guard let expires = SupabaseTimestamp.microseconds($0.expires_at) else {
                    throw SupabaseFailure.malformed("ownActiveStoryExpiries: \($0.expires_at)")
                }
                return expires
            }
        }
    }

    /// `POST /rest/v1/rpc/create_story?select=<cols>` `{"media_path","media_type","media_url"}`:
    /// the function checks the file, its URL and the quota; the database sets the times.
    public func createStory(mediaURL: String, path: MediaPath, viewer: Viewer) async throws -> Story {
        try await call("createStory") {
            guard let me = viewer.userId, me == path.owner, path.kind == .story else { throw DomainError.storageNotAuthorized }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/create_story", query: [("select", Self.storyColumns)],
                headers: [("Content-Type", "application/json")],
                body: try Self.json(CreateStoryArguments(mediaURL: mediaURL, path: path)), idempotent: false,
                operation: "createStory")
            guard let row = try decode([StoryRow].self, try await rest(request, viewer: viewer), "createStory").first else {
                throw SupabaseFailure.malformed("createStory: no row")
            }
            return try row.story()
        }
    }
}
