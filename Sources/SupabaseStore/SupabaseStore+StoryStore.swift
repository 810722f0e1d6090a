import Foundation
import SocialDomain
import SupabaseSchema

/// Stories over PostgREST and Storage (migration 20250301001500): `active_stories` for the
/// tray, plain reads and inserts that RLS decides (it hides expired rows), files in the public
/// `stories` bucket.
extension SupabaseStore: StoryStore, StoryMediaStore {
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

    /// `POST /rest/v1/stories` with `Prefer: return=representation`; the database sets the times.
    public func createStory(mediaURL: String, path: StoryMediaPath, viewer: Viewer) async throws -> Story {
        try await call("createStory") {
            guard let me = viewer.userId, me == path.owner else { throw DomainError.storageNotAuthorized }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/stories", query: [("select", Self.storyColumns)],
                headers: [("Content-Type", "application/json"), ("Prefer", "return=representation")],
                body: try Self.json(NewStoryRow(author: me, mediaURL: mediaURL, path: path)), idempotent: false,
                operation: "createStory")
            guard let row = try decode([StoryRow].self, try await rest(request, viewer: viewer), "createStory").first else {
                throw SupabaseFailure.malformed("createStory: no row")
            }
            return try row.story()
        }
    }

    public func putStoryMedia(_ bytes: Data, at path: StoryMediaPath, viewer: Viewer) async throws -> String {
        try await call("putStoryMedia") {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            try await putObject(
                bytes, bucket: configuration.storiesBucket, path: path.description, contentType: path.format.contentType,
                viewer: viewer, operation: "putStoryMedia")
            return "\(configuration.url.absoluteString)/storage/v1/object/public/\(configuration.storiesBucket)/\(path)"
        }
    }

    public func deleteStoryMedia(at path: StoryMediaPath, viewer: Viewer) async throws {
        try await call("deleteStoryMedia") {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            try await deleteObject(bucket: configuration.storiesBucket, path: path.description, viewer: viewer, operation: "deleteStoryMedia")
        }
    }
}
