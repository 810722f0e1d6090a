import Foundation

/// "Followed by X, Y and 12 others" on profile cards: for each profile, the profiles the viewer
/// follows who follow it, a few by name and all of them counted, batch-shaped so that a page of
/// cards costs one store call.
///
/// Nobody is "followed by people you follow" for an anonymous viewer, and one's own profile has
/// nobody to show: both are an empty list counted 0 without a store call (not an error: a card
/// renders the same query for every viewer). The profile itself must be one the request has read
/// as visible (through ``BatchGetProfiles``).
///
/// ```swift
/// let request = try GetFollowedByViewerFollowing.request(of: profile.id, first: 3, viewer: viewer)
/// let pages = try await GetFollowedByViewerFollowing(graph: store).execute([request!], viewer: viewer)
/// ```
public struct GetFollowedByViewerFollowing: Sendable {
    public let graph: any SocialGraphStore

    public init(graph: any SocialGraphStore) { self.graph = graph }

    /// One profile's request, `first` checked against ``PageSize/followedBy``; nil when the answer
    /// is empty without asking the store (anonymous viewer, the viewer's own profile). `first: 0`
    /// still asks: its count is wanted.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` on `first`.
    public static func request(of profileId: UUID, first: Int?, viewer: Viewer) throws -> FollowedByRequest? {
        let limit = try PageSize.followedBy.checked(first, field: "first")
        guard let me = viewer.userId, me != profileId else { return nil }
        return FollowedByRequest(profileId: profileId, limit: limit)
    }

    /// One list per request, in request order, in one store call.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(_ requests: [FollowedByRequest], viewer: Viewer) async throws -> [ProfileListPage] {
        guard !requests.isEmpty else { return [] }
        guard viewer.userId != nil else { return requests.map { _ in .empty } }
        let pages = try await backend { try await graph.followedByViewerFollowing(requests, viewer: viewer) }
        guard pages.count == requests.count else { throw DomainError.backendUnavailable }
        return pages
    }
}
