import Foundation
import MediaFiles
import SocialDomain

/// Avatars, story files and post images under `<data>/<bucket>/<userId>/<file>` (a ``MediaDirectory``), served
/// by the HTTP server at `<publicBaseURL>/<bucket>/<userId>/<file>`; each put and delete counted
/// as the port operation of its kind (`putAvatar`, `deleteStoryMedia`...).
extension EmbeddedStore: MediaStore, MediaFileSource {
    /// The files of every kind, in the data folder.
    public var mediaDirectory: MediaDirectory {
        MediaDirectory(root: dataDirectory, publicBaseURL: options.publicBaseURL)
    }

    public func putMedia(_ bytes: Data, at path: MediaPath, viewer: Viewer) async throws -> String {
        let operation: StoreOperation = switch path.kind {
        case .avatar: .putAvatar
        case .story: .putStoryMedia
        case .postImage: .putPostImage
        }
        return try await call(operation) { try await mediaDirectory.putMedia(bytes, at: path, viewer: viewer) }
    }

    public func deleteMedia(at path: MediaPath, viewer: Viewer) async throws {
        let operation: StoreOperation = switch path.kind {
        case .avatar: .deleteAvatar
        case .story: .deleteStoryMedia
        case .postImage: .deletePostImage
        }
        try await call(operation) { try await mediaDirectory.deleteMedia(at: path, viewer: viewer) }
    }

    public func storedMedia(_ kind: MediaKind, atRequestPath path: String) async -> StoredMedia? {
        await mediaDirectory.storedMedia(kind, atRequestPath: path)
    }
}
