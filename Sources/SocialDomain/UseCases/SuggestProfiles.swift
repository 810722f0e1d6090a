import Foundation

/// Profiles to follow, for the signed-in viewer: friends of friends (seed 003's "Phase 9+"),
/// ranked by how many of the viewer's follows follow them, then by follower count, then id. A
/// viewer who follows nobody yet has no friends of friends: they get the most followed public
/// profiles instead (issue 54), most followers first, then id, by the same rule
/// (``SocialRules/isSuggestible(_:requested:)``).
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
        let limit = try Self.checkedLimit(first, viewer: viewer)
        return try await execute(limits: [limit], viewer: viewer)[limit] ?? .empty
    }

    /// `first` checked, then that the viewer is signed in: the limit to ask ``execute(limits:viewer:)`` for.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` on `first`, `UNAUTHENTICATED`.
    public static func checkedLimit(_ first: Int?, viewer: Viewer) throws -> Int {
        let limit = try PageSize.suggestions.checked(first, field: "first")
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .viewSuggestions) }
        return limit
    }

    /// Every limit asked of one request's `suggestedProfiles` fields (aliases included) in one store
    /// call: the ranking is the viewer's whatever the limit, so the longest page serves the shorter
    /// ones. 50 aliases cost one ranking, not 50.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(limits: [Int], viewer: Viewer) async throws -> [Int: ProfileListPage] {
        guard let longest = limits.max() else { return [:] }
        let page = try await backend { try await graph.suggestedProfiles(limit: longest, viewer: viewer) }
        return Dictionary(
            limits.map { ($0, ProfileListPage(profiles: Array(page.profiles.prefix($0)), totalCount: page.totalCount)) },
            uniquingKeysWith: { first, _ in first })
    }
}

/// How far suggestions look (issue 40: bounded work per call): the viewer's most recent follows,
/// and each one's most recent follows. A viewer who follows 1,000 profiles that follow 1,000 each
/// is ranked on 200 x 100 paths, not 1,000,000, so a call costs the same whoever asks; the
/// ranking then favours what the viewer's recent follows recently followed; a viewer who follows
/// nobody is ranked on the ``popularProfiles`` most followed public profiles. Every store uses
/// these numbers (the SQL function `suggested_profiles` spells them out).
public enum SuggestionBounds {
    /// The viewer's follows walked, most recent first.
    public static let middleProfiles = 200
    /// The follows of each of those walked, most recent first.
    public static let followsPerMiddleProfile = 100
    /// For a viewer who follows nobody yet: the most followed public profiles considered (then
    /// filtered by the rule), so that `totalCount` counts at most these.
    public static let popularProfiles = 200
}
