import Foundation

/// The image formats an avatar may have, recognised by their magic bytes, never by the
/// declared content type.
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

    public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    public var contentType: String { self == .jpeg ? "image/jpeg" : "image/png" }
}

/// Where an avatar lives inside the `avatars` store: `{userId}/{unixTime}_{8 hex}.{jpg|png}`.
///
/// A new path per upload, so CDNs never serve a stale image (seed 000); the first segment is
/// the owner, which both stores use for authorisation.
public struct AvatarPath: Sendable, Hashable, CustomStringConvertible {
    public var owner: UUID
    public var unixTime: Int64
    public var suffix: String
    public var format: ImageFormat

    public init(owner: UUID, unixTime: Int64, suffix: String, format: ImageFormat) {
        self.owner = owner
        self.unixTime = unixTime
        self.suffix = suffix
        self.format = format
    }

    /// `6b1e…/1740912672_3f9c1a2b.jpg`
    public var description: String { "\(owner.lowercased)/\(unixTime)_\(suffix).\(format.fileExtension)" }

    /// Parses `uuid/digits_8hex.jpg|png` strictly (lower-case uuid, as written): the only paths
    /// the stores write, so `..` or any other name never reaches a file system or a bucket.
    public init?(parsing text: String) {
        guard let name = OwnedFileName(parsing: text) else { return nil }
        let format: ImageFormat
        switch name.fileExtension {
        case "jpg": format = .jpeg
        case "png": format = .png
        default: return nil
        }
        self.init(owner: name.owner, unixTime: name.unixTime, suffix: name.suffix, format: format)
    }

    /// The path at the end of a public avatar URL, whichever store built it
    /// (`…/avatars/<uuid>/<file>` or `…/storage/v1/object/public/avatars/<uuid>/<file>`); nil for
    /// any other URL (an avatar set elsewhere is never deleted by the gateway).
    public init?(publicURL: String) {
        let withoutQuery = publicURL.split(separator: "?", maxSplits: 1).first.map(String.init) ?? publicURL
        let segments = withoutQuery.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return nil }
        self.init(parsing: segments.suffix(2).joined(separator: "/"))
    }
}

/// The result of ``UploadAvatar``: the stored path, its public URL and the updated profile.
public struct AvatarUpload: Sendable, Hashable {
    public var path: AvatarPath
    public var publicURL: String
    public var profile: Profile
    public init(path: AvatarPath, publicURL: String, profile: Profile) {
        self.path = path
        self.publicURL = publicURL
        self.profile = profile
    }
}
