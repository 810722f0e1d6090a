import Foundation

/// Stores a new avatar and points the viewer's profile at it (seeds 000/001).
///
/// Rules: signed in; at most 5 MB; really JPEG or PNG (magic bytes, not the declared type);
/// stored at `{userId}/{unixTime}_{8 hex}.{jpg|png}`. If the profile update fails after the
/// upload, the object is deleted again so nothing is orphaned.
///
/// ```swift
/// let upload = try await UploadAvatar(profiles: store, avatars: store).execute(bytes: data, viewer: viewer)
/// upload.profile.avatarURL == upload.publicURL
/// ```
public struct UploadAvatar: Sendable {
    public static let maxBytes = 5 * 1024 * 1024

    public let profiles: any ProfileStore
    public let avatars: any AvatarStore
    public let clock: any WallClock
    public let random: any RandomSource

    public init(
        profiles: any ProfileStore, avatars: any AvatarStore,
        clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom()
    ) {
        self.profiles = profiles
        self.avatars = avatars
        self.clock = clock
        self.random = random
    }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`,
    ///   `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(bytes: Data, viewer: Viewer) async throws -> AvatarUpload {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: "upload a photo") }
        guard bytes.count <= Self.maxBytes else {
            throw DomainError(.payloadTooLarge, "File exceeds maximum size of 5MB", field: "file")
        }
        guard let format = ImageFormat.sniff(bytes) else {
            throw DomainError(.unsupportedMediaType, "Invalid image data provided", field: "file")
        }
        let now = clock.now()
        let path = AvatarPath(
            owner: me, unixTime: Int64(now.timeIntervalSince1970.rounded(.down)), suffix: random.hex(8), format: format)
        let url = try await backend { try await avatars.putAvatar(bytes, at: path, viewer: viewer) }
        var changes = ProfileChanges(updatedAt: now)
        changes.avatarURL = .set(url)
        do {
            let profile = try await backend { try await profiles.updateProfile(id: me, changes: changes, viewer: viewer) }
            return AvatarUpload(path: path, publicURL: url, profile: profile)
        } catch {
            try? await avatars.deleteAvatar(at: path, viewer: viewer)
            throw error
        }
    }
}
