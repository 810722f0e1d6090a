import Foundation

/// Media files a store keeps itself, for the gateway to serve at the public URLs the store handed
/// out (`/avatars/...`, `/stories/...`: the embedded store's, and the PostgreSQL store's without
/// Supabase Storage). Stores whose URLs point elsewhere (Supabase Storage serves its own) have
/// none.
public protocol MediaFileSource: Sendable {
    /// The file of `kind` at a public URL's path below `/<bucket>/` (`<user id>/<file>`), or nil
    /// when the path names no stored file of that kind.
    func storedMedia(_ kind: MediaKind, atRequestPath path: String) async -> StoredMedia?
}

/// A stored media file's bytes and media type.
public struct StoredMedia: Sendable {
    public var bytes: Data
    /// `image/jpeg`, `image/png`, `video/mp4` or `video/quicktime`, from the path's format.
    public var contentType: String

    public init(bytes: Data, contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}
