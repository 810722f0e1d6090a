import Foundation

/// Removes the viewer's avatar (seed 000 `deleteProfilePhoto`): the profile stops pointing at it,
/// then the object is deleted. Idempotent: without an avatar, or with its object already gone,
/// it succeeds and changes nothing more.
///
/// The profile is cleared first, so a client never shows a link to a deleted object; if the
/// object's deletion then fails, ``onCleanupFailure`` hears of it (the caller logs it) and the
/// removal still succeeds, as with the object ``UploadAvatar`` replaces.
///
/// ```swift
/// let profile = try await DeleteAvatar(profiles: store, media: store).execute(viewer: viewer)
/// profile.avatarURL == nil
/// ```
public struct DeleteAvatar: Sendable {
    public let profiles: any ProfileStore
    /// Where the file is (its ``MediaKind/avatar`` bucket).
    public let media: any MediaStore
    public let clock: any WallClock
    /// Told when the object could not be deleted after the profile let go of it.
    public let onCleanupFailure: @Sendable (MediaPath, any Error) -> Void

    public init(
        profiles: any ProfileStore, media: any MediaStore, clock: any WallClock = SystemClock(),
        onCleanupFailure: @escaping @Sendable (MediaPath, any Error) -> Void = { _, _ in }
    ) {
        self.profiles = profiles
        self.media = media
        self.clock = clock
        self.onCleanupFailure = onCleanupFailure
    }

    /// - Returns: the viewer's profile, without an avatar.
    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(viewer: Viewer) async throws -> Profile {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .deletePhoto) }
        guard let current = try await backend({ try await profiles.profiles(ids: [me], viewer: viewer) })[me] else {
            throw DomainError.profileNotFound
        }
        guard let url = current.avatarURL else { return current }
        var changes = ProfileChanges(updatedAt: clock.now())
        changes.avatarURL = .clear
        let profile = try await backend { try await profiles.updateProfile(id: me, changes: changes, viewer: viewer) }
        // Only an object of the viewer's own folder is theirs to delete (a URL set elsewhere is not).
        if let path = MediaPath(publicURL: url, kind: .avatar), path.owner == me {
            do {
                try await media.deleteMedia(at: path, viewer: viewer)
            } catch {
                onCleanupFailure(path, error)
            }
        }
        return profile
    }
}
