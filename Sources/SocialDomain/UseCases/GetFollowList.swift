import Foundation

/// A page of a profile's followers (seed 001 `GetFollowersUseCase`), newest follow first.
///
/// Keyset cursors on the follow's (created_at, id) keep pages correct while follows are added;
/// page size 0...50 (default 20); `last`/`before` page backwards.
///
/// ```swift
/// let page = try await GetFollowers(profiles: store, follows: store)
///     .execute(profileId: id, first: 20, after: nil, viewer: viewer)
/// ```
public struct GetFollowers: Sendable {
    let lister: FollowListReader

    public init(profiles: any ProfileStore, follows: any FollowStore) {
        lister = FollowListReader(kind: .followers, profiles: profiles, follows: follows)
    }

    /// - Throws: ``DomainError`` `BAD_USER_INPUT`, `UNAUTHENTICATED`, `NOT_FOUND` (profile missing or
    ///   private), `BACKEND_UNAVAILABLE`.
    public func execute(
        profileId: UUID, first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil,
        viewer: Viewer
    ) async throws -> FollowPage {
        try await lister.page(profileId: profileId, first: first, after: after, last: last, before: before, viewer: viewer)
    }
}

/// A page of the profiles someone follows (seed 001 `GetFollowingUseCase`); same rules as
/// ``GetFollowers``.
public struct GetFollowing: Sendable {
    let lister: FollowListReader

    public init(profiles: any ProfileStore, follows: any FollowStore) {
        lister = FollowListReader(kind: .following, profiles: profiles, follows: follows)
    }

    /// - Throws: ``DomainError`` `BAD_USER_INPUT`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(
        profileId: UUID, first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil,
        viewer: Viewer
    ) async throws -> FollowPage {
        try await lister.page(profileId: profileId, first: first, after: after, last: last, before: before, viewer: viewer)
    }
}

/// Pages of follow lists whose owners the caller has already read as visible profiles: the
/// gateway's loader asks for every list of one query level in one store call.
///
/// The argument rules live in ``request(_:of:first:after:last:before:)``, which the single-list
/// use cases (``GetFollowers``, ``GetFollowing``) share, so every page is checked the same way.
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

    /// One page per request, in request order, in one store call. The owners must be profiles the
    /// viewer may see (read through ``BatchGetProfiles`` in the same request): the store does not
    /// check them again.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] {
        guard !requests.isEmpty else { return [] }
        let pages = try await backend { try await follows.followPages(requests, viewer: viewer) }
        guard pages.count == requests.count else { throw DomainError.backendUnavailable }
        return pages
    }
}

/// The shared steps of both lists: validate arguments, check the owner is visible, read a page.
struct FollowListReader: Sendable {
    let kind: FollowList.Kind
    let profiles: any ProfileStore
    let follows: any FollowStore

    func page(
        profileId: UUID, first: Int?, after: String?, last: Int?, before: String?, viewer: Viewer
    ) async throws -> FollowPage {
        let request = try GetFollowPages.request(
            kind, of: profileId, first: first, after: after, last: last, before: before, viewer: viewer)
        guard try await BatchGetProfiles(profiles: profiles).load(ids: [profileId], viewer: viewer)[profileId] != nil
        else { throw DomainError.profileNotFound }
        guard let page = try await GetFollowPages(follows: follows).execute([request], viewer: viewer).first else {
            throw DomainError.backendUnavailable
        }
        return page
    }
}
