import Foundation

/// Edits the viewer's own profile (seed 001 `UpdateProfileUseCase`).
///
/// Order: signed in, owner, then each field's rule, then the store. Text fields are trimmed;
/// a field that is empty after trimming is cleared. Lengths count what a person sees as one
/// character (grapheme clusters, Swift's `String.count`), as the seeds do: a flag or an emoji
/// with a skin tone is one character. One character can be any number of code points (combining
/// marks stack without end), so each field is also bounded in UTF-8 bytes,
/// ``maxBytesPerCharacter`` per allowed character; the databases check only that byte bound.
///
/// ```swift
/// var input = ProfileUpdateInput(); input.bio = .set("Crimps and coffee")
/// let profile = try await UpdateProfile(profiles: store).execute(input: input, viewer: viewer)
/// ```
public struct UpdateProfile: Sendable {
    public static let maxBioLength = 280
    public static let maxDisplayNameLength = 50
    public static let maxTextLength = 100
    /// Seed 000 keeps the preferred grade scales as an enum it does not list; the gateway takes
    /// them as free text ("V", "Font", "YDS", "French") of at most this many characters.
    public static let maxGradeScaleLength = 20
    /// UTF-8 bytes allowed per allowed character: the longest common emoji sequences (families,
    /// flags of subdivisions) take 25-28 bytes.
    public static let maxBytesPerCharacter = 32

    public let profiles: any ProfileStore
    public let clock: any WallClock

    public init(profiles: any ProfileStore, clock: any WallClock = SystemClock()) {
        self.profiles = profiles
        self.clock = clock
    }

    /// - Parameters:
    ///   - profileId: the profile to edit; nil means the viewer's own.
    /// - Throws: ``DomainError``: `UNAUTHENTICATED`, `FORBIDDEN`, `BAD_USER_INPUT` (with the
    ///   field), `HANDLE_TAKEN`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(profileId: UUID? = nil, input: ProfileUpdateInput, viewer: Viewer) async throws -> Profile {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .updateProfile) }
        let id = profileId ?? me
        guard id == me else { throw DomainError.notProfileOwner }
        let changes = try validate(input)
        if changes.isEmpty {
            guard let current = try await backend({ try await profiles.profiles(ids: [id], viewer: viewer) })[id]
            else { throw DomainError.profileNotFound }
            return current
        }
        // One store call for both parts: the embedded store writes them in one transaction.
        return try await backend { try await profiles.updateProfile(id: id, changes: changes, viewer: viewer) }
    }

    /// The field rules, without touching a store.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` with the field.
    public func validate(_ input: ProfileUpdateInput) throws -> ProfileChanges {
        var changes = ProfileChanges(updatedAt: clock.now())
        switch input.handle.map(Self.trimmed) {
        case .keep: break
        case .clear: throw DomainError.badUserInput("Handle cannot be empty", field: "handle")
        case .set(let handle):
            guard HandleRule.isValid(handle) else {
                throw DomainError.invalidHandle
            }
            changes.handle = handle
        }
        changes.displayName = Self.text(input.displayName)
        if case .set(let name) = changes.displayName {
            if name.count > Self.maxDisplayNameLength {
                throw DomainError.badUserInput(
                    "Display name exceeds \(Self.maxDisplayNameLength) characters", field: "displayName")
            }
            try Self.checkBytes(name, characters: Self.maxDisplayNameLength, field: "displayName", label: "Display name")
        }
        changes.bio = Self.text(input.bio)
        if case .set(let bio) = changes.bio {
            let count = bio.count
            if count > Self.maxBioLength {
                throw DomainError.badUserInput("Bio is too long (\(count)/\(Self.maxBioLength) characters)", field: "bio")
            }
            try Self.checkBytes(bio, characters: Self.maxBioLength, field: "bio", label: "Bio")
        }
        changes.homeGym = try Self.shortText(input.homeGym, field: "homeGym", label: "Home gym")
        changes.favoriteStyle = try Self.shortText(input.favoriteStyle, field: "favoriteStyle", label: "Favorite style")
        switch input.avatarURL {
        case .keep: break
        case .clear: changes.avatarURL = .clear
        case .set:
            throw DomainError.badUserInput("avatarURL can only be set by uploading an avatar", field: "avatarURL")
        }
        changes.climbingSince = input.climbingSince
        switch input.homeZIP {
        case .keep: break
        case .clear: changes.ownerDetails.homeZIP = .clear
        case .set(let zip): changes.ownerDetails.homeZIP = try HomeZIPRule.validated(zip).map(FieldUpdate.set) ?? .clear
        }
        changes.ownerDetails.preferredGradeScaleBoulder = try Self.shortText(
            input.preferredGradeScaleBoulder, field: "preferredGradeScaleBoulder", label: "Boulder grade scale",
            limit: Self.maxGradeScaleLength)
        changes.ownerDetails.preferredGradeScaleRoute = try Self.shortText(
            input.preferredGradeScaleRoute, field: "preferredGradeScaleRoute", label: "Route grade scale",
            limit: Self.maxGradeScaleLength)
        switch input.isPublic {
        case .keep: break
        case .clear: throw DomainError.badUserInput("isPublic cannot be null", field: "isPublic")
        case .set(let value): changes.isPublic = value
        }
        return changes
    }

    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Trims; empty after trimming means clear.
    static func text(_ update: FieldUpdate<String>) -> FieldUpdate<String> {
        switch update {
        case .keep: .keep
        case .clear: .clear
        case .set(let value): trimmed(value).isEmpty ? .clear : .set(trimmed(value))
        }
    }

    /// Trims, clears when empty, and refuses more than `limit` characters.
    static func shortText(
        _ update: FieldUpdate<String>, field: String, label: String, limit: Int = maxTextLength
    ) throws -> FieldUpdate<String> {
        let result = text(update)
        if case .set(let value) = result {
            if value.count > limit {
                throw DomainError.badUserInput("\(label) exceeds \(limit) characters", field: field)
            }
            try checkBytes(value, characters: limit, field: field, label: label)
        }
        return result
    }

    /// The byte bound of a field allowed `characters` characters.
    /// - Throws: `BAD_USER_INPUT` naming the field, with the bound in bytes.
    static func checkBytes(_ text: String, characters: Int, field: String, label: String) throws {
        let limit = characters * maxBytesPerCharacter
        guard text.utf8.count <= limit else {
            throw DomainError.badUserInput(
                "\(label) is too long (\(text.utf8.count)/\(limit) bytes): characters made of many combined marks count more",
                field: field)
        }
    }
}
