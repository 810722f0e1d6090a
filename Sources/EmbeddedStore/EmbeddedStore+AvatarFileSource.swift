import Foundation
import SocialDomain

/// The avatar files this store wrote, for the HTTP server to serve at their public URLs.
extension EmbeddedStore: AvatarFileSource {
    public func storedAvatar(atRequestPath path: String) async -> StoredAvatar? {
        await avatarDirectory.storedAvatar(atRequestPath: path)
    }
}
