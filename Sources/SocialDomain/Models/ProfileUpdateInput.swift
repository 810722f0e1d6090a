import Foundation

/// `updateProfile(input:)` as the client sent it: every field absent, null or set.
///
/// ```swift
/// var input = ProfileUpdateInput()
/// input.bio = .set("  Crimps and coffee  ")   // stored trimmed
/// input.homeGym = .clear                        // explicit null
/// ```
public struct ProfileUpdateInput: Sendable, Hashable {
    public var handle: FieldUpdate<String> = .keep
    public var displayName: FieldUpdate<String> = .keep
    public var bio: FieldUpdate<String> = .keep
    public var avatarURL: FieldUpdate<String> = .keep
    public var homeGym: FieldUpdate<String> = .keep
    public var climbingSince: FieldUpdate<CalendarDay> = .keep
    public var favoriteStyle: FieldUpdate<String> = .keep
    public var isPublic: FieldUpdate<Bool> = .keep
    /// Owner-only fields (``ProfileOwnerDetails``).
    public var homeZIP: FieldUpdate<String> = .keep
    public var preferredGradeScaleBoulder: FieldUpdate<String> = .keep
    public var preferredGradeScaleRoute: FieldUpdate<String> = .keep

    public init() {}
}

/// A validated, trimmed profile update, what ``ProfileStore/updateProfile(id:changes:viewer:)``
/// applies. `nil`/`.keep` fields are left as they are.
public struct ProfileChanges: Sendable, Hashable {
    public var handle: String?
    public var displayName: FieldUpdate<String> = .keep
    public var bio: FieldUpdate<String> = .keep
    public var avatarURL: FieldUpdate<String> = .keep
    public var homeGym: FieldUpdate<String> = .keep
    public var climbingSince: FieldUpdate<CalendarDay> = .keep
    public var favoriteStyle: FieldUpdate<String> = .keep
    public var isPublic: Bool?
    /// The owner-only fields, kept apart from the profile row (``ProfileOwnerDetails``).
    public var ownerDetails = OwnerDetailChanges()
    /// The new `updatedAt`, from the use case's clock.
    public var updatedAt: Date

    public init(updatedAt: Date) {
        self.updatedAt = updatedAt
    }

    /// True when nothing would change.
    public var isEmpty: Bool { !changesProfileRow && ownerDetails.isEmpty }

    /// True when a field of the public profile row changes: only then does `updatedAt` move
    /// (the owner-only fields are not part of what others see change).
    public var changesProfileRow: Bool {
        !(handle == nil && displayName.isKeep && bio.isKeep && avatarURL.isKeep && homeGym.isKeep
            && climbingSince.isKeep && favoriteStyle.isKeep && isPublic == nil)
    }

    /// The profile after the changes (what a store without server-side logic writes back); the
    /// owner-only fields are applied by ``OwnerDetailChanges/applied(to:)``.
    public func applied(to profile: Profile) -> Profile {
        var p = profile
        if let handle { p.handle = handle }
        p.displayName = displayName.applied(to: p.displayName)
        p.bio = bio.applied(to: p.bio)
        p.avatarURL = avatarURL.applied(to: p.avatarURL)
        p.homeGym = homeGym.applied(to: p.homeGym)
        p.climbingSince = climbingSince.applied(to: p.climbingSince)
        p.favoriteStyle = favoriteStyle.applied(to: p.favoriteStyle)
        if let isPublic { p.isPublic = isPublic }
        if changesProfileRow { p.updatedAt = updatedAt }
        return p
    }
}
