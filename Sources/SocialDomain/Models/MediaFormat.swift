import Foundation

/// The image formats an avatar or a story image may have, recognised by their magic bytes, never
/// by the declared content type: the formats whose header ``ImageDimensions`` reads.
public enum ImageFormat: String, Sendable, Hashable {
    case jpeg, png

    /// JPEG starts `FF D8 FF`; PNG starts `89 50 4E 47 0D 0A 1A 0A`.
    public static func sniff(_ bytes: Data) -> ImageFormat? {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: png) { return .png }
        if bytes.starts(with: jpeg) { return .jpeg }
        return nil
    }

    public var fileExtension: String { MediaFormat(self).fileExtension }
    public var contentType: String { MediaFormat(self).contentType }
}

/// The formats a stored media file may have, recognised by their bytes (never the declared type):
/// JPEG and PNG images, MP4 and QuickTime videos. Which of them a kind takes is
/// ``MediaKind/formats``.
///
/// A video is an ISO base media file (ISO/IEC 14496-12) whose first box is a plausible `ftyp`:
/// its size (big-endian UInt32 at offset 0) is 16 bytes (header, major brand, minor version) plus
/// whole 4-byte compatible brands, at most ``maxFileTypeBoxBytes`` and within the file; the type
/// at offset 4 is `ftyp`; the major brand at offset 8 is one of ``videoBrands`` (QuickTime's
/// `qt  ` is QuickTime, every other one MP4). Before issue 37 `ftyp` at offset 4 was enough, so
/// an HTML page with that prefix was stored, and served, as an MP4.
public enum MediaFormat: String, Sendable, Hashable, CaseIterable {
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

    /// The same format, as a media file's.
    public init(_ image: ImageFormat) {
        self = image == .png ? .png : .jpeg
    }

    /// The format of `bytes`, whichever kind may take it; nil for anything else.
    public static func sniff(_ bytes: Data) -> MediaFormat? {
        if let image = ImageFormat.sniff(bytes) { return MediaFormat(image) }
        let head = [UInt8](bytes.prefix(12))
        guard head.count == 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard size >= 16, size <= maxFileTypeBoxBytes, size <= bytes.count, (size - 16) % 4 == 0 else { return nil }
        guard let brand = String(bytes: head[8..<12], encoding: .ascii), videoBrands.contains(brand) else { return nil }
        return brand == "qt  " ? .quicktime : .mp4
    }

    /// The image format of a JPEG or PNG file, which follows the images' dimension rule.
    public var imageFormat: ImageFormat? {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .mp4, .quicktime: nil
        }
    }

    /// What a story of this format shows (seed 004 `MediaType`).
    public var mediaType: StoryMediaType { imageFormat == nil ? .video : .image }

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

    /// The format a file name's extension stands for (`jpg`, `png`, `mp4`, `mov`).
    init?(fileExtension: Substring) {
        guard let format = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = format
    }
}
