import Foundation

/// Where a media file lives inside its kind's bucket: `{userId}/{unixTime}_{8 hex}.{ext}`, for
/// avatars and stories alike.
///
/// A new path per upload, so CDNs never serve a stale file (seed 000); the first segment is the
/// owner, by which every store authorises a write or a delete. The kind is not part of the text
/// (the bucket is), so a path is always read back knowing its kind.
///
/// ```swift
/// let path = MediaPath(kind: .avatar, owner: me, unixTime: 1_740_912_672, suffix: "3f9c1a2b", format: .jpeg)
/// path.description                                  // "6b1e…/1740912672_3f9c1a2b.jpg"
/// MediaPath(parsing: path.description, kind: .avatar) == path
/// ```
public struct MediaPath: Sendable, Hashable, CustomStringConvertible {
    public var kind: MediaKind
    public var owner: UUID
    public var unixTime: Int64
    public var suffix: String
    public var format: MediaFormat

    public init(kind: MediaKind, owner: UUID, unixTime: Int64, suffix: String, format: MediaFormat) {
        self.kind = kind
        self.owner = owner
        self.unixTime = unixTime
        self.suffix = suffix
        self.format = format
    }

    /// `6b1e…/1740912672_3f9c1a2b.jpg`: the path inside the kind's bucket.
    public var description: String { "\(owner.lowercased)/\(unixTime)_\(suffix).\(format.fileExtension)" }

    /// Parses `uuid/digits_8hex.ext` strictly (lower-case uuid, as written), with an extension of
    /// a format the kind takes: the only paths the stores write, so `..` or any other name never
    /// reaches a file system or a bucket.
    public init?(parsing text: String, kind: MediaKind) {
        guard let name = OwnedFileName(parsing: text), let format = MediaFormat(fileExtension: name.fileExtension),
              kind.formats.contains(format)
        else { return nil }
        self.init(kind: kind, owner: name.owner, unixTime: name.unixTime, suffix: name.suffix, format: format)
    }

    /// The path at the end of a public URL, whichever store built it (`…/avatars/<uuid>/<file>`
    /// or `…/storage/v1/object/public/avatars/<uuid>/<file>`); nil for any other URL (a file set
    /// elsewhere is never deleted by the gateway).
    public init?(publicURL: String, kind: MediaKind) {
        let withoutQuery = publicURL.split(separator: "?", maxSplits: 1).first.map(String.init) ?? publicURL
        let segments = withoutQuery.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return nil }
        self.init(parsing: segments.suffix(2).joined(separator: "/"), kind: kind)
    }
}
