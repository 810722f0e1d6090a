import Foundation

/// Stores a new avatar and points the viewer's profile at it (seeds 000/001).
///
/// Rules: signed in; at most 5 MB; really JPEG or PNG (magic bytes, not the declared type) with
/// a readable header declaring at most ``maxDimension`` pixels each way (no decompression bombs);
/// stored at `{userId}/{unixTime}_{8 hex}.{jpg|png}`. If the profile update fails after the
/// upload, the object is deleted again so nothing is orphaned; once the profile points to the
/// new object, the one it replaced is deleted (best effort: a failure is reported to
/// ``onCleanupFailure`` and the upload still succeeds), so storage does not grow per upload.
///
/// ```swift
/// let upload = try await UploadAvatar(profiles: store, media: store).execute(bytes: data, viewer: viewer)
/// upload.profile.avatarURL == upload.publicURL
/// ```
public struct UploadAvatar: Sendable {
    public static let maxBytes = 5 * 1024 * 1024
    /// The largest width and height an avatar may declare, in pixels (the rule story images share).
    public static let maxDimension = ImageDimensions.maxDimension

    public let profiles: any ProfileStore
    /// Where the file goes (its ``MediaKind/avatar`` bucket).
    public let media: any MediaStore
    public let clock: any WallClock
    public let random: any RandomSource
    /// Told when the replaced avatar could not be deleted (the caller logs it).
    public let onCleanupFailure: @Sendable (MediaPath, any Error) -> Void

    public init(
        profiles: any ProfileStore, media: any MediaStore,
        clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom(),
        onCleanupFailure: @escaping @Sendable (MediaPath, any Error) -> Void = { _, _ in }
    ) {
        self.profiles = profiles
        self.media = media
        self.clock = clock
        self.random = random
        self.onCleanupFailure = onCleanupFailure
    }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`,
    ///   `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(bytes: Data, viewer: Viewer) async throws -> AvatarUpload {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .uploadPhoto) }
        guard bytes.count <= Self.maxBytes else {
            throw DomainError.fileTooLarge(maxBytes: Self.maxBytes)
        }
        guard let format = ImageFormat.sniff(bytes) else { throw DomainError.invalidImage }
        try ImageDimensions.checked(bytes, format: format)
        // The avatar being replaced, read before the upload and deleted once the profile has moved
        // on. Best effort like the delete itself: a failed read only skips the clean-up.
        let previous = (try? await profiles.profiles(ids: [me], viewer: viewer))?[me]?.avatarURL
            .flatMap { MediaPath(publicURL: $0, kind: .avatar) }
        let now = clock.now()
        let path = MediaPath(
            kind: .avatar, owner: me, unixTime: Int64(now.timeIntervalSince1970.rounded(.down)), suffix: random.hex(8),
            format: MediaFormat(format))
        let url = try await backend { try await media.putMedia(bytes, at: path, viewer: viewer) }
        var changes = ProfileChanges(updatedAt: now)
        changes.avatarURL = .set(url)
        do {
            let profile = try await backend { try await profiles.updateProfile(id: me, changes: changes, viewer: viewer) }
            if let previous, previous.owner == me, previous != path {
                do {
                    try await media.deleteMedia(at: previous, viewer: viewer)
                } catch {
                    onCleanupFailure(previous, error)
                }
            }
            return AvatarUpload(path: path, publicURL: url, profile: profile)
        } catch {
            try? await media.deleteMedia(at: path, viewer: viewer)
            throw error
        }
    }
}
