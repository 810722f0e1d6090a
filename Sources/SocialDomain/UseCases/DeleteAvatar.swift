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
/// let profile = try await DeleteAvatar(profiles: store, avatars: store).execute(viewer: viewer)
/// profile.avatarURL == nil
/// ```
public struct DeleteAvatar: Sendable {
    public let profiles: any ProfileStore
    public let avatars: any AvatarStore
    public let clock: any WallClock
    /// Told when the object could not be deleted after the profile let go of it.
    public let onCleanupFailure: @Sendable (AvatarPath, any Error) -> Void

    public init(
        profiles: any ProfileStore, avatars: any AvatarStore, clock: any WallClock = SystemClock(),
        onCleanupFailure: @escaping @Sendable (AvatarPath, any Error) -> Void = { _, _ in }
    ) {
        self.profiles = profiles
        self.avatars = avatars
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
        if let path = AvatarPath(publicURL: url), path.owner == me {
            do {
                try await avatars.deleteAvatar(at: path, viewer: viewer)
            } catch {
                onCleanupFailure(path, error)
            }
        }
        return profile
    }
}
