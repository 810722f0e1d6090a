import Foundation

/// Stories in a backend (their rows). An expired story is never returned by any read (the store
/// filters on its `expires_at`, as the Supabase policy does); visibility follows the author's
/// profile.
public protocol StoryStore: Sendable {
    /// The active stories of the profiles the viewer follows and the viewer's own.
    func activeStories(viewer: Viewer) async throws -> [Story]
    /// The active, visible stories among `ids`; none for an anonymous viewer (stories are shown
    /// to signed-in viewers only, as the database's `stories_read` policy has it).
    func stories(ids: [UUID], viewer: Viewer) async throws -> [UUID: Story]
    /// The expiry times (microseconds since 1970) of the viewer's own active stories, soonest
    /// first, at most `limit` of them: what ``CreateStory`` needs for its quota.
    /// - Throws: `UNAUTHENTICATED` for an anonymous viewer.
    func ownActiveStoryExpiries(viewer: Viewer, limit: Int) async throws -> [Int64]
    /// Writes the story row for a file already stored; created and expiry times are the store's.
    /// - Throws: `TOO_MANY_REQUESTS` when the viewer already has ``CreateStory/maxActiveStories``
    ///   active stories (checked as the row is written, so concurrent writes cannot pass it).
    func createStory(mediaURL: String, path: StoryMediaPath, viewer: Viewer) async throws -> Story
}

/// The `stories` object store: story files by path, public URLs. Only the owner (the path's
/// first segment) may write or delete.
public protocol StoryMediaStore: Sendable {
    /// Stores a story's file and returns its public URL.
    /// - Throws: `FORBIDDEN` when `path.owner` is not the viewer.
    func putStoryMedia(_ bytes: Data, at path: StoryMediaPath, viewer: Viewer) async throws -> String
    /// Deletes a story's file; a missing one is not an error.
    func deleteStoryMedia(at path: StoryMediaPath, viewer: Viewer) async throws
}

/// Story files a store keeps itself, for the gateway to serve at `/stories/...` (the embedded
/// store's, and the PostgreSQL store's without Supabase Storage).
public protocol StoryFileSource: Sendable {
    /// The file at a public URL's path below `/stories/`, or nil when the path names none.
    func storedStoryMedia(atRequestPath path: String) async -> StoredAvatar?
}
