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

    /// - Throws: ``DomainError`` `BAD_USER_INPUT`, `NOT_FOUND` (profile missing or private),
    ///   `BACKEND_UNAVAILABLE`.
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

/// The shared steps of both lists: validate arguments, check the owner is visible, read a page.
struct FollowListReader: Sendable {
    let kind: FollowList.Kind
    let profiles: any ProfileStore
    let follows: any FollowStore

    func page(
        profileId: UUID, first: Int?, after: String?, last: Int?, before: String?, viewer: Viewer
    ) async throws -> FollowPage {
        let list = FollowList(kind, of: profileId)
        let page = try PageRequest.validate(first: first, after: after, last: last, before: before, list: list)
        guard try await backend({ try await profiles.profiles(ids: [profileId], viewer: viewer) })[profileId] != nil
        else { throw DomainError.profileNotFound }
        let pages = try await backend {
            try await follows.followPages([FollowPageRequest(list: list, page: page)], viewer: viewer)
        }
        guard let result = pages.first else { throw DomainError.backendUnavailable }
        return result
    }
}
