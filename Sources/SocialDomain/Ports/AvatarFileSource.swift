import Foundation

/// Avatar objects a store keeps itself, for the gateway to serve at the public URLs the store
/// handed out (the embedded store writes them to its data folder). Stores whose URLs point
/// elsewhere (Supabase Storage serves its own) have none.
public protocol AvatarFileSource: Sendable {
    /// The object at a public URL's path below `/avatars/` (`<user id>/<file>.jpg`), or nil when
    /// the path names no stored avatar.
    func storedAvatar(atRequestPath path: String) async -> StoredAvatar?
}

/// An avatar object's bytes and media type.
public struct StoredAvatar: Sendable {
    public var bytes: Data
    /// `image/jpeg` or `image/png`, from the path's format.
    public var contentType: String

    public init(bytes: Data, contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}
