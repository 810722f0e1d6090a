import Foundation

/// The viewer's pending follow requests, newest first (issue 40): what the owner of a private
/// profile answers.
///
/// ```swift
/// let page = try await ListFollowRequests(requests: store).execute(first: 20, after: nil, viewer: owner)
/// ```
public struct ListFollowRequests: Sendable {
    public let requests: any FollowRequestStore
    public init(requests: any FollowRequestStore) { self.requests = requests }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (first out of
    ///   ``PageSize/ownLists``, or a cursor of another list), `BACKEND_UNAVAILABLE`.
    public func execute(first: Int?, after: String?, viewer: Viewer) async throws -> FollowRequestPage {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
        let limit = try PageSize.ownLists.checked(first, field: "first")
        var keyset: TimeKeyset?
        if let after {
            guard case .timeline(.followRequests(let owner), let key) = PageCursor.decode(after), owner == me else {
                throw DomainError.invalidCursor(field: "after")
            }
            keyset = key
        }
        let request = TimePageRequest(limit: limit, after: keyset)
        return try await backend { try await requests.followRequestPage(request, viewer: viewer) }
    }
}

/// The viewer's own pending follow requests, newest first (issue 54): the private profiles a
/// client shows as "Requested"; an unfollow cancels one.
///
/// ```swift
/// let page = try await ListSentFollowRequests(requests: store).execute(first: 20, after: nil, viewer: asker)
/// ```
public struct ListSentFollowRequests: Sendable {
    public let requests: any FollowRequestStore
    public init(requests: any FollowRequestStore) { self.requests = requests }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (first out of
    ///   ``PageSize/ownLists``, or a cursor of another list), `BACKEND_UNAVAILABLE`.
    public func execute(first: Int?, after: String?, viewer: Viewer) async throws -> SentFollowRequestPage {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
        let limit = try PageSize.ownLists.checked(first, field: "first")
        var keyset: TimeKeyset?
        if let after {
            guard case .timeline(.sentFollowRequests(let requester), let key) = PageCursor.decode(after), requester == me else {
                throw DomainError.invalidCursor(field: "after")
            }
            keyset = key
        }
        let request = TimePageRequest(limit: limit, after: keyset)
        return try await backend { try await requests.sentFollowRequestPage(request, viewer: viewer) }
    }
}

/// Approves or declines a pending request to follow the viewer's profile.
public struct AnswerFollowRequest: Sendable {
    public let requests: any FollowRequestStore
    public init(requests: any FollowRequestStore) { self.requests = requests }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND` "Follow request not found",
    ///   `BACKEND_UNAVAILABLE`.
    public func execute(requester: UUID, approve: Bool, viewer: Viewer) async throws -> FollowRequestAnswer {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
        guard me != requester else { throw DomainError.followRequestNotFound }
        return try await backend { try await requests.answerFollowRequest(from: requester, approve: approve, viewer: viewer) }
    }
}

/// `viewerFollowRequestStatus` for many profiles in one store call. Only a profile the viewer
/// sees as its card (``ProfileAccess/card``) can have a pending request from them: the caller
/// asks for those alone, and anonymous viewers need no call.
public struct GetFollowRequestStatuses: Sendable {
    public let requests: any FollowRequestStore
    public init(requests: any FollowRequestStore) { self.requests = requests }

    /// The statuses from a source that answers at once (``ReadyGraphReads``), or nil when it cannot.
    public static func ready(profileIds: [UUID], viewer: Viewer, from source: any ReadyGraphReads) -> [UUID: FollowRequestStatus]? {
        guard let me = viewer.userId else { return Dictionary(profileIds.map { ($0, .none) }, uniquingKeysWith: { a, _ in a }) }
        guard let pending = source.readyPendingRequests(to: profileIds.filter { $0 != me }, viewer: viewer) else { return nil }
        return Dictionary(profileIds.map { ($0, pending.contains($0) ? .pending : .none) }, uniquingKeysWith: { a, _ in a })
    }

    /// The viewer's request status for each of `profileIds`.
    public func execute(profileIds: [UUID], viewer: Viewer) async throws -> [UUID: FollowRequestStatus] {
        guard let me = viewer.userId else { return Dictionary(profileIds.map { ($0, .none) }, uniquingKeysWith: { a, _ in a }) }
        let pairs = Set(profileIds.filter { $0 != me }).map { FollowPair(follower: me, followee: $0) }
        let pending = pairs.isEmpty ? [] : try await backend { try await requests.pendingFollowRequests(among: pairs, viewer: viewer) }
        return Dictionary(profileIds.map { ($0, pending.contains(FollowPair(follower: me, followee: $0)) ? .pending : .none) },
                          uniquingKeysWith: { a, _ in a })
    }
}
