/// Whether a handle is free to take (seed 000 `checkHandleAvailable`, which clients call before
/// creating or renaming a profile).
///
/// Handles are unique case-insensitively. A handle held by a private profile is taken: the
/// answer says so and nothing more, so it reveals no more than a failed rename would. The
/// viewer's own handle is available to them (in any case), as ``UpdateProfile`` lets them keep it.
///
/// ```swift
/// try await CheckHandleAvailable(profiles: store).execute(handle: "Alice_Wonder", viewer: .anonymous)  // false
/// ```
public struct CheckHandleAvailable: Sendable {
    public let profiles: any ProfileStore

    public init(profiles: any ProfileStore) { self.profiles = profiles }

    /// - Throws: ``DomainError`` `BAD_USER_INPUT` (field `handle`, the handle rule's message) for
    ///   a malformed handle, before any store call; `BACKEND_UNAVAILABLE`.
    public func execute(handle: String, viewer: Viewer) async throws -> Bool {
        guard let key = BatchGetProfiles.handleKey(handle) else {
            throw DomainError.invalidHandle
        }
        return try await !backend { try await profiles.isHandleTaken(key, viewer: viewer) }
    }
}
