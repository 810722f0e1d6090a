import Foundation

/// Posts a story (seed 004): an image (JPEG, PNG) or a short video (MP4, QuickTime) of at most
/// ``maxBytes``, recognised by its bytes (``MediaFormat/sniff(_:)``, one of ``MediaKind/story``'s formats); an image declares at
/// most 4096 x 4096 pixels, as an avatar does (``ImageDimensions/checked(_:format:)``). An author
/// has at most ``maxActiveStories`` unexpired stories: the quota is checked before the file is
/// stored (the store checks it again as it writes the row, so concurrent posts cannot pass it).
/// The file is stored first, then the row; if the row cannot be written the file is deleted
/// again, so a failure leaves neither.
public struct CreateStory: Sendable {
    /// 15 MB: a few seconds of phone video, or any photo.
    public static let maxBytes = 15 * 1024 * 1024
    /// How many unexpired stories one author may have (issue 37: one upload could back any number
    /// of stories). The SQL migrations' `social_private.max_active_stories()` says the same.
    public static let maxActiveStories = 30

    public let stories: any StoryStore
    /// Where the file goes (its ``MediaKind/story`` bucket).
    public let media: any MediaStore
    public let clock: any WallClock
    public let random: any RandomSource

    public init(
        stories: any StoryStore, media: any MediaStore, clock: any WallClock = SystemClock(),
        random: any RandomSource = SystemRandom()
    ) {
        self.stories = stories
        self.media = media
        self.clock = clock
        self.random = random
    }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`,
    ///   `TOO_MANY_REQUESTS` (with `retryAfterSeconds`), `BACKEND_UNAVAILABLE`.
    public func execute(bytes: Data, viewer: Viewer) async throws -> Story {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .postStories) }
        guard bytes.count <= Self.maxBytes else {
            throw DomainError.fileTooLarge(maxBytes: Self.maxBytes)
        }
        guard let format = MediaFormat.sniff(bytes), MediaKind.story.formats.contains(format) else {
            throw DomainError.unsupportedStoryMedia
        }
        if let image = format.imageFormat { try ImageDimensions.checked(bytes, format: image) }
        let expiries = try await backend {
            try await stories.ownActiveStoryExpiries(viewer: viewer, limit: Self.maxActiveStories)
        }
        if expiries.count >= Self.maxActiveStories, let oldest = expiries.min() {
            throw DomainError.tooManyActiveStories(retryAfter: Self.secondsUntil(oldest, from: clock.now()))
        }
        let path = MediaPath(
            kind: .story, owner: me, unixTime: Int64(clock.now().timeIntervalSince1970.rounded(.down)), suffix: random.hex(8), format: format)
        let url = try await backend { try await media.putMedia(bytes, at: path, viewer: viewer) }
        do {
            return try await backend { try await stories.createStory(mediaURL: url, path: path, viewer: viewer) }
        } catch {
            try? await media.deleteMedia(at: path, viewer: viewer)
            throw error
        }
    }
}

extension DomainError {
    /// A story file that is neither an image nor a video the gateway serves.
    public static let unsupportedStoryMedia = DomainError(
        .unsupportedMediaType, "Stories must be a JPEG or PNG image, or an MP4 or QuickTime video", field: "file")
}

extension CreateStory {
    /// Whole seconds from `now` until `microseconds` (a story's expiry), at least 1.
    public static func secondsUntil(_ microseconds: Int64, from now: Date) -> Int {
        let left = microseconds - UnixMicroseconds.from(now)
        return max(1, Int((left + 999_999) / 1_000_000))
    }
}

/// The viewer's story tray: the active stories of the profiles they follow and their own,
/// grouped by author, each group oldest first; the viewer's own group first, then by each
/// group's newest story, newest first.
public struct GetStories: Sendable {
    public let stories: any StoryStore

    public init(stories: any StoryStore) { self.stories = stories }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BACKEND_UNAVAILABLE`.
    public func execute(viewer: Viewer) async throws -> [StoryGroup] {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewStories) }
        let active = try await backend { try await stories.activeStories(viewer: viewer) }
        let groups = Dictionary(grouping: active, by: \.authorId).map { author, stories in
            StoryGroup(authorId: author, stories: stories.sorted { ($0.createdAtMicroseconds, $0.id.lowercased) < ($1.createdAtMicroseconds, $1.id.lowercased) })
        }
        return groups.sorted { a, b in
            if (a.authorId == me) != (b.authorId == me) { return a.authorId == me }
            let (newestA, newestB) = (a.stories.last?.createdAtMicroseconds ?? 0, b.stories.last?.createdAtMicroseconds ?? 0)
            return newestA != newestB ? newestA > newestB : a.authorId.lowercased < b.authorId.lowercased
        }
    }
}
