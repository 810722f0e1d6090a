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
    /// Writes the story row for a file already stored (a ``MediaKind/story`` path); created and expiry times are the store's.
    /// - Throws: `TOO_MANY_REQUESTS` when the viewer already has ``CreateStory/maxActiveStories``
    ///   active stories (checked as the row is written, so concurrent writes cannot pass it).
    func createStory(mediaURL: String, path: MediaPath, viewer: Viewer) async throws -> Story
}
