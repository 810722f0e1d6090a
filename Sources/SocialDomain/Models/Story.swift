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
/// JPEG and PNG images, MP4 and QuickTime videos.
///
/// A video is an ISO base media file (ISO/IEC 14496-12) whose first box is a plausible `ftyp`:
/// its size (big-endian UInt32 at offset 0) is 16 bytes (header, major brand, minor version) plus
/// whole 4-byte compatible brands, at most ``maxFileTypeBoxBytes`` and within the file; the type
/// at offset 4 is `ftyp`; the major brand at offset 8 is one of ``videoBrands`` (QuickTime's
/// `qt  ` is QuickTime, every other one MP4). Before issue 37 `ftyp` at offset 4 was enough, so
/// an HTML page with that prefix was stored, and served, as an MP4.
public enum StoryMediaFormat: String, Sendable, Hashable {
    case jpeg, png, mp4, quicktime

    /// The largest first box a video may declare: real `ftyp` boxes list a handful of brands
    /// (under 64 bytes); 4096 leaves room for any encoder and no room for a page of text.
    public static let maxFileTypeBoxBytes = 4096

    /// The major brands of the video files a phone or an encoder writes, from the MP4 Registration
    /// Authority's list (mp4ra.org, "Brands"): ISO base media (`isom`, `iso2`-`iso9`), MP4 version 1
    /// and 2 (`mp41`, `mp42`), MP4 with AVC, HEVC or AV1 (`avc1`, `hvc1`, `hev1`, `av01`), Apple's
    /// `M4V ` (and its `M4VH`, `M4VP`), 3GPP and 3GPP2 video (`3gp4`-`3gp7`, `3g2a`-`3g2c`), DASH
    /// segments (`dash`, `msdh`, `msix`), Sony's `MSNV` and `XAVC`, Flash's `f4v `, and QuickTime's
    /// `qt  `. Audio-only (`M4A `, `M4B `), image (`heic`, `avif`, `mif1`) and DRM brands are not
    /// story videos.
    public static let videoBrands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "avc1", "hvc1", "hev1",
        "av01", "M4V ", "M4VH", "M4VP", "3gp4", "3gp5", "3gp6", "3gp7", "3g2a", "3g2b", "3g2c", "dash", "msdh", "msix",
        "MSNV", "XAVC", "f4v ", "qt  ",
    ]

    public static func sniff(_ bytes: Data) -> StoryMediaFormat? {
        if let image = ImageFormat.sniff(bytes) { return image == .png ? .png : .jpeg }
        let head = [UInt8](bytes.prefix(12))
        guard head.count == 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard size >= 16, size <= maxFileTypeBoxBytes, size <= bytes.count, (size - 16) % 4 == 0 else { return nil }
        guard let brand = String(bytes: head[8..<12], encoding: .ascii), videoBrands.contains(brand) else { return nil }
        return brand == "qt  " ? .quicktime : .mp4
    }

    /// The image format of a JPEG or PNG story, which follows the avatars' dimension rule.
    public var imageFormat: ImageFormat? {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .mp4, .quicktime: nil
        }
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
