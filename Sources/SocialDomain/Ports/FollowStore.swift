import Foundation

/// Follow relationships in a backend, batch-shaped.
///
/// ```swift
/// let pages = try await store.followPages(owners.map { FollowPageRequest(list: FollowList(.followers, of: $0)) },
///                                         viewer: viewer)   // one call for 50 profiles
/// ```
///
/// Every follow store keeps follow requests (``FollowRequestStore``) and blocks (``BlockStore``)
/// too: a follow of a private profile is a request, in the same call, and a block removes follows.
public protocol FollowStore: FollowRequestStore, BlockStore {
    /// One page per request, in request order, in one round trip. Lists are newest follow first
    /// (created_at, id descending), only active follows, only profiles the viewer sees whole; a
    /// list of an owner the viewer does not see whole is empty with `totalCount` 0
    /// (``SocialRules/showsLists(of:)``). For a signed-in viewer each edge carries
    /// ``FollowEdge/viewerState``, read in the same round trip.
    func followPages(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage]

    /// The viewer's own follows (as follower) changed after the request's time, undone ones
    /// included, ordered by (updated_at, id); at most `limit` records and whether more follow.
    /// Whatever the followee's visibility now: they are the viewer's own rows.
    func followChanges(_ request: FollowSyncRequest, viewer: Viewer) async throws -> FollowSyncPage

    /// Which of `pairs` are active follows the viewer may see: both of the follow's profiles are
    /// ones the viewer sees whole (``SocialRules/showsEdge(_:_:)``). So a private profile that
    /// follows a viewer who sees only its card is not listed as following them.
    func activeFollows(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair>

    /// Follows, unfollows or toggles atomically; re-following restores the soft-deleted row;
    /// counters change in the same transaction. The follower must be the viewer.
    ///
    /// Removing an active follow (an unfollow, or a toggle of a followed profile) works even when
    /// the followee is now hidden from the viewer; the outcome's `followee` is then nil.
    ///
    /// A private followee the viewer does not follow (issue 40): `follow` makes a pending request
    /// (or keeps it; `TOO_MANY_REQUESTS` within ``FollowRequestRules/askAgainAfterDecline`` of a
    /// decline), `unfollow` cancels the viewer's pending request, `toggle` does whichever applies;
    /// the outcome's `requestStatus` says where the request stands and `followee` is its card.
    /// - Throws: `FORBIDDEN` (follower is not the viewer), `NOT_FOUND` (followee missing, or
    ///   hidden and not followed). A pair of one profile never gets here: the follow use cases
    ///   refuse it first with `CANNOT_FOLLOW_SELF` (the SQL functions also raise it).
    func changeFollow(_ change: FollowChange, viewer: Viewer) async throws -> FollowOutcome
}
