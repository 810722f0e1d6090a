import Foundation

/// Blocks between profiles (issue 40). Every read of every store applies them through the
/// visibility rule (``ProfileAccess``); this port writes and lists them.
///
/// ```swift
/// let outcome = try await store.changeBlock(of: carol, block: true, viewer: alice)
/// ```
public protocol BlockStore: Sendable {
    /// Blocks (removing the follows and follow requests between the two, both ways, counters in
    /// the same transaction) or unblocks `profileId` for the viewer. Repeating either is a no-op.
    /// - Throws: `NOT_FOUND` (no such profile).
    func changeBlock(of profileId: UUID, block: Bool, viewer: Viewer) async throws -> BlockOutcome

    /// The profiles the viewer blocks, newest block first, as cards, with the total. `request`
    /// pages the same way as follow requests (first/after over a time-and-id keyset).
    func blockedProfilePage(_ request: FollowRequestPageRequest, viewer: Viewer) async throws -> BlockedProfilePage
}
