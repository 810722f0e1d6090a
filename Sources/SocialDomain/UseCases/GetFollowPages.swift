import Foundation

/// Pages of follow lists whose owners the caller has already read as visible profiles: the
/// gateway's loader asks for every list of one query level in one store call.
///
/// Seed 001's `GetFollowersUseCase` and `GetFollowingUseCase` are this one batch-shaped use case:
/// a profile's `followers` and `following` are read as fields of a ``Profile`` the request has
/// already loaded through ``BatchGetProfiles`` (which decides NOT_FOUND for a missing or private
/// owner), so a single-list use case that read the owner again would only add a store call per
/// list. The argument rules live in ``request(_:of:first:after:last:before:viewer:)``.
///
/// ```swift
/// let request = try GetFollowPages.request(.followers, of: profile.id, first: 10, viewer: viewer)
/// let pages = try await GetFollowPages(follows: store).execute([request], viewer: viewer)
/// ```
public struct GetFollowPages: Sendable {
    public let follows: any FollowStore

    public init(follows: any FollowStore) { self.follows = follows }

    /// One list's Relay arguments, checked before any store call (see
    /// ``PageRequest/validate(first:after:last:before:list:)``), then that the viewer is signed in
    /// (seed 001: "You must be logged in to view followers" / "... following").
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` naming the argument, `UNAUTHENTICATED`.
    public static func request(
        _ kind: FollowList.Kind, of owner: UUID, first: Int? = nil, after: String? = nil, last: Int? = nil,
        before: String? = nil, viewer: Viewer
    ) throws -> FollowPageRequest {
        let list = FollowList(kind, of: owner)
        let page = try PageRequest.validate(first: first, after: after, last: last, before: before, list: list)
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: kind == .followers ? .viewFollowers : .viewFollowing) }
        return FollowPageRequest(list: list, page: page)
    }

    /// A page from a source that answers at once (``ReadyGraphReads``), or nil when it cannot.
    /// The request must come from ``request(_:of:first:after:last:before:viewer:)``.
    public static func ready(_ request: FollowPageRequest, viewer: Viewer, from source: any ReadyGraphReads) -> FollowPage? {
        source.readyFollowPage(request, viewer: viewer)
    }

    /// One page per request, in request order, in one store call. The owners are profiles the
    /// request read through ``BatchGetProfiles``; a store answers an owner the viewer does not see
    /// whole with an empty page counted 0 (``SocialRules/showsLists(of:)``), as the gateway does
    /// without asking for one it read as a card.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] {
        guard !requests.isEmpty else { return [] }
        let pages = try await backend { try await follows.followPages(requests, viewer: viewer) }
        guard pages.count == requests.count else { throw DomainError.backendUnavailable }
        return pages
    }
}
