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

    /// The profiles the viewer blocks, newest block first, as cards, with the total.
    func blockedProfilePage(_ request: TimePageRequest, viewer: Viewer) async throws -> BlockedProfilePage
}
