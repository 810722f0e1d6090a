import Foundation

/// Blocks or unblocks a profile for the viewer (issue 40).
///
/// ```swift
/// let outcome = try await ChangeBlock(blocks: store).execute(profileId: carol, block: true, viewer: alice)
/// ```
public struct ChangeBlock: Sendable {
    public let blocks: any BlockStore
    public init(blocks: any BlockStore) { self.blocks = blocks }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` "You cannot block yourself",
    ///   `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(profileId: UUID, block: Bool, viewer: Viewer) async throws -> BlockOutcome {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .blockUsers) }
        guard me != profileId else { throw DomainError.cannotBlockSelf }
        return try await backend { try await blocks.changeBlock(of: profileId, block: block, viewer: viewer) }
    }
}

/// The viewer's blocked profiles, newest block first.
public struct ListBlockedProfiles: Sendable {
    public let blocks: any BlockStore
    public init(blocks: any BlockStore) { self.blocks = blocks }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (first out of
    ///   ``PageSize/ownLists``, or a cursor of another list), `BACKEND_UNAVAILABLE`.
    public func execute(first: Int?, after: String?, viewer: Viewer) async throws -> BlockedProfilePage {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .blockUsers) }
        let limit = try PageSize.ownLists.checked(first, field: "first")
        var keyset: TimeKeyset?
        if let after {
            guard case .timeline(.blocked(let owner), let key) = PageCursor.decode(after), owner == me else {
                throw DomainError.invalidCursor(field: "after")
            }
            keyset = key
        }
        let request = TimePageRequest(limit: limit, after: keyset)
        return try await backend { try await blocks.blockedProfilePage(request, viewer: viewer) }
    }
}
