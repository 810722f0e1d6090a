import Foundation
import SocialDomain

/// Avatars as files under `<directory>/<userId>/<file>`, served by the HTTP server at
/// `<publicBaseURL>/avatars/<userId>/<file>`: the embedded store's avatars, and those of any store
/// without an object store of its own (the PostgreSQL store without `SUPABASE_URL`).
///
/// It emulates the `avatars owner insert` policy: a viewer writes and deletes only in their own
/// folder.
public struct AvatarDirectory: AvatarStore, AvatarFileSource {
    /// The folder holding the `avatars` objects.
    public let directory: URL
    /// Prefix of avatar URLs: `<publicBaseURL>/avatars/<path>`.
    public let publicBaseURL: String

    public init(directory: URL, publicBaseURL: String) {
        self.directory = directory
        self.publicBaseURL = publicBaseURL
    }

    /// The public URL of an avatar path.
    public func publicURL(for path: AvatarPath) -> String {
        "\(publicBaseURL)/avatars/\(path)"
    }

    /// The file behind a request path (the part after `/avatars/`), or nil when the path is not
    /// one this store writes (so `..` or other names can never reach the file system).
    public func file(forRequestPath requestPath: String) -> URL? {
        guard let path = AvatarPath(parsing: requestPath) else { return nil }
        return directory.appendingPathComponent(path.description)
    }

    public func putAvatar(_ bytes: Data, at path: AvatarPath, viewer: Viewer) async throws -> String {
        guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
        let file = directory.appendingPathComponent(path.description)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: file, options: .atomic)
        return publicURL(for: path)
    }

    public func deleteAvatar(at path: AvatarPath, viewer: Viewer) async throws {
        guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
        let file = directory.appendingPathComponent(path.description)
        if FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }

    public func storedAvatar(atRequestPath path: String) async -> StoredAvatar? {
        guard let avatar = AvatarPath(parsing: path), let file = file(forRequestPath: path),
              let bytes = FileManager.default.contents(atPath: file.path)
        else { return nil }
        return StoredAvatar(bytes: bytes, contentType: avatar.format == .png ? "image/png" : "image/jpeg")
    }
}
