import Foundation

/// Profiles to follow, for the signed-in viewer: friends of friends (seed 003's "Phase 9+"),
/// ranked by how many of the viewer's follows follow them, then by follower count, then id.
///
/// The first N only (``PageSize/suggestions``): suggestions are a ranked shelf, not a list to
/// page through, and the ranking moves with every follow, so a cursor would skip or repeat
/// profiles. `hasNextPage` says whether more exist; `totalCount` how many.
///
/// ```swift
/// let page = try await SuggestProfiles(graph: store).execute(first: 20, viewer: viewer)
/// ```
public struct SuggestProfiles: Sendable {
    public let graph: any SocialGraphStore

    public init(graph: any SocialGraphStore) { self.graph = graph }

    /// `first` checked, then that the viewer is signed in ("You must be logged in to view
    /// suggested profiles"), then one store call.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` on `first`, `UNAUTHENTICATED`, `BACKEND_UNAVAILABLE`.
    public func execute(first: Int?, viewer: Viewer) async throws -> ProfileListPage {
        let limit = try PageSize.suggestions.checked(first, field: "first")
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .viewSuggestions) }
        return try await backend { try await graph.suggestedProfiles(limit: limit, viewer: viewer) }
    }
}

/// How far suggestions look (issue 40: bounded work per call): the viewer's most recent follows,
/// and each one's most recent follows. A viewer who follows 1,000 profiles that follow 1,000 each
/// is ranked on 200 x 100 paths, not 1,000,000, so a call costs the same whoever asks; the
/// ranking then favours what the viewer's recent follows recently followed. Every store uses
/// these numbers (the SQL function `suggested_profiles` spells them out).
public enum SuggestionBounds {
    /// The viewer's follows walked, most recent first.
    public static let middleProfiles = 200
    /// The follows of each of those walked, most recent first.
    public static let followsPerMiddleProfile = 100
}
