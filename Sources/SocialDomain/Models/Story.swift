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
    public var mediaPath: StoryMediaPath
    public var mediaType: StoryMediaType
    public var createdAtMicroseconds: Int64
    public var expiresAtMicroseconds: Int64

    public init(
        id: UUID, authorId: UUID, mediaURL: String, mediaPath: StoryMediaPath, mediaType: StoryMediaType,
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

/// The formats a story file may have, recognised by their bytes (never the declared type):
/// JPEG and PNG images, MP4 and QuickTime videos (an ISO base media file: `ftyp` at offset 4;
/// brand `qt  ` is QuickTime).
public enum StoryMediaFormat: String, Sendable, Hashable {
    case jpeg, png, mp4, quicktime

    public static func sniff(_ bytes: Data) -> StoryMediaFormat? {
        if let image = ImageFormat.sniff(bytes) { return image == .png ? .png : .jpeg }
        let head = [UInt8](bytes.prefix(12))
        guard head.count == 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        return Array(head[8..<12]) == Array("qt  ".utf8) ? .quicktime : .mp4
    }

    public var mediaType: StoryMediaType { self == .jpeg || self == .png ? .image : .video }
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .mp4: "mp4"
        case .quicktime: "mov"
        }
    }
    public var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .mp4: "video/mp4"
        case .quicktime: "video/quicktime"
        }
    }
}

/// Where a story's file lives inside the `stories` store: `{userId}/{unixTime}_{8 hex}.{ext}`,
/// the owner first (both stores authorise by it), a new name per upload.
public struct StoryMediaPath: Sendable, Hashable, CustomStringConvertible {
    public var owner: UUID
    public var unixTime: Int64
    public var suffix: String
    public var format: StoryMediaFormat

    public init(owner: UUID, unixTime: Int64, suffix: String, format: StoryMediaFormat) {
        self.owner = owner
        self.unixTime = unixTime
        self.suffix = suffix
        self.format = format
    }

    public var description: String { "\(owner.lowercased)/\(unixTime)_\(suffix).\(format.fileExtension)" }

    /// Parses only what ``description`` writes, so `..` or any other name never reaches a file
    /// system or a bucket.
    public init?(parsing text: String) {
        guard let name = OwnedFileName(parsing: text) else { return nil }
        let format: StoryMediaFormat
        switch name.fileExtension {
        case "jpg": format = .jpeg
        case "png": format = .png
        case "mp4": format = .mp4
        case "mov": format = .quicktime
        default: return nil
        }
        self.init(owner: name.owner, unixTime: name.unixTime, suffix: name.suffix, format: format)
    }
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
