import Foundation

/// Reads over two hops of the follow graph, batch-shaped: "followed by people you follow" for a
/// page of profile cards, and friends-of-friends suggestions. Only active follows (no
/// `deleted_at`) count, and only profiles the viewer may see appear or are counted.
///
/// ```swift
/// let lists = try await store.followedByViewerFollowing(cards.map { FollowedByRequest(profileId: $0.id) },
///                                                        viewer: viewer)   // one call for 50 cards
/// let suggestions = try await store.suggestedProfiles(limit: 20, viewer: viewer)
/// ```
public protocol SocialGraphStore: Sendable {
    /// For each request, in request order, in one round trip: the profiles the viewer follows
    /// who follow the request's profile, most followed first (follower count descending, then
    /// id), the first `limit` of them, and how many there are in all. The profiles in between
    /// must be visible to the viewer (a profile the viewer follows that has turned private is
    /// neither listed nor counted). Anonymous viewers get empty lists.
    func followedByViewerFollowing(_ requests: [FollowedByRequest], viewer: Viewer) async throws -> [ProfileListPage]

    /// Friends of friends for a signed-in viewer, in one statement: public profiles followed by
    /// the profiles the viewer follows, without the viewer, the profiles the viewer already
    /// follows or has asked to follow, and either side of a block (``SocialRules/isSuggestible(_:requested:)``); ranked by how many of the viewer's follows follow them (descending), then
    /// follower count (descending), then id. The first `limit`, and how many there are in all.
    /// Private profiles are never suggested. Anonymous viewers get an empty list. A viewer with no
    /// active follow gets the most followed public profiles instead (issue 54: the first
    /// ``SuggestionBounds/popularProfiles`` by follower count, then id, by the same exclusions),
    /// most followers first, then id.
    func suggestedProfiles(limit: Int, viewer: Viewer) async throws -> ProfileListPage
}
