import Foundation

/// The result of ``UploadAvatar``: the stored path, its public URL and the updated profile.
public struct AvatarUpload: Sendable, Hashable {
    public var path: MediaPath
    public var publicURL: String
    public var profile: Profile
    public init(path: MediaPath, publicURL: String, profile: Profile) {
        self.path = path
        self.publicURL = publicURL
        self.profile = profile
    }
}
