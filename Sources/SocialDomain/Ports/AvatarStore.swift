import Foundation

/// The `avatars` object store: put and delete by path, public URLs.
///
/// Only the owner (the path's first segment) may write or delete.
public protocol AvatarStore: Sendable {
    /// Stores `bytes` at `path` and returns the public URL.
    /// - Throws: `FORBIDDEN` when `path.owner` is not the viewer.
    func putAvatar(_ bytes: Data, at path: AvatarPath, viewer: Viewer) async throws -> String

    /// Deletes the object; deleting a missing object is not an error.
    func deleteAvatar(at path: AvatarPath, viewer: Viewer) async throws
}
