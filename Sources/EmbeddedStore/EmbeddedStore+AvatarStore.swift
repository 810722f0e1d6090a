import Foundation
import SocialDomain

/// Avatars as files under `<data>/avatars/<userId>/<file>` (an ``AvatarDirectory``), served by the
/// HTTP server at `<publicBaseURL>/avatars/<userId>/<file>`.
extension EmbeddedStore: AvatarStore {
    /// The folder holding the `avatars` objects.
    public var avatarsDirectory: URL { dataDirectory.appendingPathComponent("avatars", isDirectory: true) }

    var avatarDirectory: AvatarDirectory {
        AvatarDirectory(directory: avatarsDirectory, publicBaseURL: options.publicBaseURL)
    }

    /// The public URL of an avatar path.
    public func publicURL(for path: AvatarPath) -> String { avatarDirectory.publicURL(for: path) }

    /// The file behind a request path (the part after `/avatars/`), or nil when the path is not
    /// one this store writes (so `..` or other names can never reach the file system).
    public func avatarFile(forRequestPath requestPath: String) -> URL? {
        avatarDirectory.file(forRequestPath: requestPath)
    }

    public func putAvatar(_ bytes: Data, at path: AvatarPath, viewer: Viewer) async throws -> String {
        try await call(.putAvatar) { try await avatarDirectory.putAvatar(bytes, at: path, viewer: viewer) }
    }

    public func deleteAvatar(at path: AvatarPath, viewer: Viewer) async throws {
        try await call(.deleteAvatar) { try await avatarDirectory.deleteAvatar(at: path, viewer: viewer) }
    }
}
