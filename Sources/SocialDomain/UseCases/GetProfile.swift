/// One profile by id or handle, or nil when it does not exist or is private to someone else.
///
/// ```swift
/// let profile = try await GetProfile(profiles: store).execute(.handle("alice_wonder"), viewer: viewer)
/// ```
public struct GetProfile: Sendable {
    public let profiles: any ProfileStore

    public init(profiles: any ProfileStore) { self.profiles = profiles }

    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(_ key: ProfileKey, viewer: Viewer) async throws -> Profile? {
        switch key {
        case .id(let id):
            return try await backend { try await profiles.profiles(ids: [id], viewer: viewer) }[id]
        case .handle(let handle):
            let trimmed = handle.trimmingCharacters(in: .whitespacesAndNewlines)
            guard HandleRule.isValid(trimmed) else { return nil }
            return try await backend { try await profiles.profiles(handles: [trimmed], viewer: viewer) }[trimmed.lowercased()]
        }
    }
}
