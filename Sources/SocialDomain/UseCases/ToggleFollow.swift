import Foundation

/// Flips whether the viewer follows a profile and returns the new state (seed 001
/// `ToggleFollowUseCase`). The store flips atomically, so two concurrent toggles never lose one.
///
/// ```swift
/// let outcome = try await ToggleFollow(follows: store).execute(profileId: bob, viewer: alice)
/// outcome.isFollowing   // true: alice now follows bob
/// ```
public struct ToggleFollow: Sendable {
    public let follows: any FollowStore
    /// The viewer's follow and request limits; nil for none (tools, tests of other rules).
    public let limits: FollowLimits?
    public init(follows: any FollowStore, limits: FollowLimits? = nil) {
        self.follows = follows
        self.limits = limits
    }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `CANNOT_FOLLOW_SELF`, `NOT_FOUND`,
    ///   `BACKEND_UNAVAILABLE`.
    public func execute(profileId: UUID, viewer: Viewer) async throws -> FollowOutcome {
        try await FollowChange.apply(.toggle, to: profileId, viewer: viewer, store: follows, limits: limits)
    }
}

/// Makes the viewer follow a profile; following again is a no-op, following after an unfollow
/// restores the soft-deleted row (seed 000 `followUser`).
public struct FollowProfile: Sendable {
    public let follows: any FollowStore
    /// The viewer's follow and request limits; nil for none (tools, tests of other rules).
    public let limits: FollowLimits?
    public init(follows: any FollowStore, limits: FollowLimits? = nil) {
        self.follows = follows
        self.limits = limits
    }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `CANNOT_FOLLOW_SELF`, `NOT_FOUND`,
    ///   `BACKEND_UNAVAILABLE`.
    public func execute(profileId: UUID, viewer: Viewer) async throws -> FollowOutcome {
        try await FollowChange.apply(.follow, to: profileId, viewer: viewer, store: follows, limits: limits)
    }
}

/// Makes the viewer stop following a profile (a soft delete); unfollowing twice is a no-op.
public struct UnfollowProfile: Sendable {
    public let follows: any FollowStore
    /// The viewer's follow and request limits; nil for none (tools, tests of other rules).
    public let limits: FollowLimits?
    public init(follows: any FollowStore, limits: FollowLimits? = nil) {
        self.follows = follows
        self.limits = limits
    }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `CANNOT_FOLLOW_SELF`, `NOT_FOUND`,
    ///   `BACKEND_UNAVAILABLE`.
    public func execute(profileId: UUID, viewer: Viewer) async throws -> FollowOutcome {
        try await FollowChange.apply(.unfollow, to: profileId, viewer: viewer, store: follows, limits: limits)
    }
}

extension FollowChange {
    /// The rules shared by the three follow mutations: signed in, not yourself, within the
    /// viewer's ``FollowLimits`` when the call may make a follow or a request (a reservation
    /// taken back when it made neither).
    static func apply(_ action: FollowAction, to profileId: UUID, viewer: Viewer, store: any FollowStore, limits: FollowLimits? = nil)
        async throws -> FollowOutcome
    {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .followUsers) }
        guard me != profileId else { throw DomainError.cannotFollowSelf }
        let change = FollowChange(pair: FollowPair(follower: me, followee: profileId), action: action)
        let counted = action != .unfollow ? limits : nil
        try counted?.reserve(me)
        do {
            let outcome = try await backend { try await store.changeFollow(change, viewer: viewer) }
            if !(outcome.changed && (outcome.isFollowing || outcome.requestStatus == .pending)) { counted?.release(me) }
            return outcome
        } catch {
            counted?.release(me)
            throw error
        }
    }
}
