import Foundation
import SocialDomain

/// Avatars as files under `<data>/avatars/<userId>/<file>`, served by the HTTP server at
/// `<publicBaseURL>/avatars/<userId>/<file>`.
extension EmbeddedStore: AvatarStore {
    /// The folder holding the `avatars` objects.
    public var avatarsDirectory: URL { dataDirectory.appendingPathComponent("avatars", isDirectory: true) }

    /// The public URL of an avatar path.
    public func publicURL(for path: AvatarPath) -> String {
        "\(options.publicBaseURL)/avatars/\(path)"
    }

    /// The file behind a request path (the part after `/avatars/`), or nil when the path is not
    /// one this store writes (so `..` or other names can never reach the file system).
    public func avatarFile(forRequestPath requestPath: String) -> URL? {
        guard let path = AvatarPath(parsing: requestPath) else { return nil }
        return avatarsDirectory.appendingPathComponent(path.description)
    }

    /// Emulates the `avatars owner insert` policy: only into the viewer's own folder.
    public func putAvatar(_ bytes: Data, at path: AvatarPath, viewer: Viewer) async throws -> String {
        try await call(.putAvatar) {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            let file = avatarsDirectory.appendingPathComponent(path.description)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: file, options: .atomic)
            return publicURL(for: path)
        }
    }

    public func deleteAvatar(at path: AvatarPath, viewer: Viewer) async throws {
        try await call(.deleteAvatar) {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            let file = avatarsDirectory.appendingPathComponent(path.description)
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.removeItem(at: file)
            }
        }
    }
}
