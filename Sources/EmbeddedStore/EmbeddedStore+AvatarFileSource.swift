import Foundation
import SocialDomain

/// The avatar files this store wrote, for the HTTP server to serve at their public URLs.
extension EmbeddedStore: AvatarFileSource {
    public func storedAvatar(atRequestPath path: String) async -> StoredAvatar? {
        guard let avatar = AvatarPath(parsing: path), let file = avatarFile(forRequestPath: path),
              let bytes = FileManager.default.contents(atPath: file.path)
        else { return nil }
        return StoredAvatar(bytes: bytes, contentType: avatar.format == .png ? "image/png" : "image/jpeg")
    }
}
