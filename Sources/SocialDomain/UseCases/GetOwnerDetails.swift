import Foundation

/// The owner-only fields of a profile (seed 000 `SCProfile`'s `homeZIP`, grade scales and
/// premium status), for its owner and nobody else.
///
/// Anyone else, anonymous viewers included, gets `nil` without a store call: the answer to
/// "what is bob's ZIP?" is the same whether bob has one or not.
///
/// ```swift
/// let mine = try await GetOwnerDetails(profiles: store).execute(profileId: me, viewer: viewer)
/// ```
public struct GetOwnerDetails: Sendable {
    public let profiles: any ProfileStore

    public init(profiles: any ProfileStore) { self.profiles = profiles }

    /// Whether `viewer` may read the owner-only fields of `profileId`.
    public static func isOwner(_ viewer: Viewer, of profileId: UUID) -> Bool {
        viewer.userId == profileId
    }

    /// - Returns: the details when `viewer` owns `profileId`, else nil.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(profileId: UUID, viewer: Viewer) async throws -> ProfileOwnerDetails? {
        guard Self.isOwner(viewer, of: profileId) else { return nil }
        return try await backend { try await profiles.ownerDetails(viewer: viewer) }
    }
}
