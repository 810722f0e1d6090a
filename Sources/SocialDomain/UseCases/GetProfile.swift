/// One profile by id or handle, or nil when it does not exist or is private to someone else.
///
/// The gateway reads single profiles through ``BatchGetProfiles/load(ids:viewer:)`` so that a
/// query level is one store call; this is the same rule for one key.
///
/// ```swift
/// let profile = try await GetProfile(profiles: store).execute(.handle("alice_wonder"), viewer: viewer)
/// ```
public struct GetProfile: Sendable {
    public let profiles: any ProfileStore

    public init(profiles: any ProfileStore) { self.profiles = profiles }

    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(_ key: ProfileKey, viewer: Viewer) async throws -> Profile? {
        let batch = BatchGetProfiles(profiles: profiles)
        switch key {
        case .id(let id):
            return try await batch.load(ids: [id], viewer: viewer)[id]
        case .handle(let handle):
            guard let key = BatchGetProfiles.handleKey(handle) else { return nil }
            return try await batch.load(handles: [key], viewer: viewer)[key]
        }
    }
}
