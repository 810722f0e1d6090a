import Foundation

/// Requests to follow private profiles, batch-shaped like ``FollowStore``.
///
/// A request is made by ``FollowStore/changeFollow(_:viewer:)``: following a private profile the
/// viewer does not follow yet makes (or keeps) a pending request instead, and unfollowing cancels
/// one. This port reads them and lets the owner answer.
///
/// ```swift
/// let pending = try await store.pendingFollowRequests(among: pairs, viewer: viewer)  // one call per wave
/// ```
public protocol FollowRequestStore: Sendable {
    /// Which of `pairs` (follower = requester, followee = the private profile) are pending
    /// requests. Only pairs the viewer is on are answered; others are never in the result.
    func pendingFollowRequests(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair>

    /// The viewer's pending requests (they are the profile asked), newest first, with the total.
    func followRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> FollowRequestPage

    /// The viewer's own pending requests (they asked), newest first, with the total: each
    /// profile asked as the viewer sees it (a card, or absent across a block, which removes the
    /// request anyway). Cancelling one is ``FollowStore/changeFollow(_:viewer:)`` with `.unfollow`.
    func sentFollowRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> SentFollowRequestPage

    /// Approves (the follow is made, counters in the same transaction, the request removed) or
    /// declines (kept as declined, so the requester cannot ask again for
    /// ``FollowRequestRules/askAgainAfterDecline``) the pending request `requester` made to the
    /// viewer.
    /// - Throws: `NOT_FOUND` "Follow request not found" (no pending request from that profile).
    func answerFollowRequest(from requester: UUID, approve: Bool, viewer: Viewer) async throws -> FollowRequestAnswer
}
