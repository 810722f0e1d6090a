import Foundation

/// Uploaded files of every ``MediaKind`` (avatars, story files): put and delete by path, public
/// URLs. One port for every kind, because every store keeps them the same way (a bucket or a
/// folder per kind, the same path shape, the same owner-only rule) and a new kind should cost a
/// case, not a port.
///
/// Only the owner (the path's first segment) may write or delete.
///
/// ```swift
/// let url = try await media.putMedia(bytes, at: path, viewer: viewer)   // path.kind picks the bucket
/// ```
public protocol MediaStore: Sendable {
    /// Stores `bytes` at `path` in its kind's bucket and returns the public URL.
    /// - Throws: `FORBIDDEN` when `path.owner` is not the viewer.
    func putMedia(_ bytes: Data, at path: MediaPath, viewer: Viewer) async throws -> String

    /// Deletes the file; deleting a missing file is not an error.
    /// - Throws: `FORBIDDEN` when `path.owner` is not the viewer.
    func deleteMedia(at path: MediaPath, viewer: Viewer) async throws
}
