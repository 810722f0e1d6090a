import Foundation

/// What a story shows (seed 004 `MediaType`).
public enum StoryMediaType: String, Sendable, Hashable {
    case image, video
}

/// A story (seed 004 `Story`): one image or short video, visible for 24 hours after it was made
/// (``expiresAtMicroseconds``), then never returned again and cleaned up.
public struct Story: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var authorId: UUID
    public var mediaURL: String
    public var mediaPath: MediaPath
    public var mediaType: StoryMediaType
    public var createdAtMicroseconds: Int64
    public var expiresAtMicroseconds: Int64

    public init(
        id: UUID, authorId: UUID, mediaURL: String, mediaPath: MediaPath, mediaType: StoryMediaType,
        createdAtMicroseconds: Int64, expiresAtMicroseconds: Int64
    ) {
        self.id = id
        self.authorId = authorId
        self.mediaURL = mediaURL
        self.mediaPath = mediaPath
        self.mediaType = mediaType
        self.createdAtMicroseconds = createdAtMicroseconds
        self.expiresAtMicroseconds = expiresAtMicroseconds
    }

    public var createdAt: Date { UnixMicroseconds.date(createdAtMicroseconds) }
    public var expiresAt: Date { UnixMicroseconds.date(expiresAtMicroseconds) }

    /// How long a story lives (seed 004: "24h expiry").
    public static let lifetimeMicroseconds: Int64 = 24 * 3_600 * 1_000_000
}

/// The stories of one author, oldest first, as `Query.stories` groups them.
public struct StoryGroup: Sendable, Hashable {
    public var authorId: UUID
    public var stories: [Story]
    public init(authorId: UUID, stories: [Story]) {
        self.authorId = authorId
        self.stories = stories
    }
}

extension DomainError {
    /// A story past the author's quota of active stories (``CreateStory/maxActiveStories``):
    /// `retryAfter` is the number of seconds until their oldest active story expires.
    public static func tooManyActiveStories(retryAfter seconds: Int) -> DomainError {
        DomainError(
            .tooManyRequests,
            "You have \(CreateStory.maxActiveStories) active stories, the most allowed. Try again in \(seconds) seconds.",
            retryAfterSeconds: seconds)
    }
}
