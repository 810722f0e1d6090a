import Foundation

/// The follow state between the viewer and one profile.
public struct FollowState: Sendable, Hashable {
    public var profileId: UUID
    /// The viewer follows the profile.
    public var viewerIsFollowing: Bool
    /// The profile follows the viewer.
    public var followsViewer: Bool
    public init(profileId: UUID, viewerIsFollowing: Bool, followsViewer: Bool) {
        self.profileId = profileId
        self.viewerIsFollowing = viewerIsFollowing
        self.followsViewer = followsViewer
    }
}

/// `viewerIsFollowing`/`followsViewer` for many profiles in one store call (seed 000
/// `checkIsFollowing`, batched). Anonymous viewers follow nobody, without a store call.
///
/// ```swift
/// let states = try await GetFollowStates(follows: store).execute(profileIds: ids, viewer: viewer)
/// ```
public struct GetFollowStates: Sendable {
    public let follows: any FollowStore
    public init(follows: any FollowStore) { self.follows = follows }

    /// The states from a source that answers at once (``ReadyGraphReads``), or nil when it
    /// cannot; anonymous viewers follow nobody.
    public static func ready(profileIds: [UUID], viewer: Viewer, from source: any ReadyGraphReads) -> [FollowState]? {
        guard viewer.userId != nil else {
            return profileIds.map { FollowState(profileId: $0, viewerIsFollowing: false, followsViewer: false) }
        }
        return source.readyFollowStates(profileIds: profileIds, viewer: viewer)
    }

    /// States in the order of `profileIds`.
    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(profileIds: [UUID], viewer: Viewer) async throws -> [FollowState] {
        guard let me = viewer.userId else {
            return profileIds.map { FollowState(profileId: $0, viewerIsFollowing: false, followsViewer: false) }
        }
        var seen = Set<UUID>()
        let others = profileIds.filter { $0 != me && seen.insert($0).inserted }
        var active = Set<FollowPair>()
        if !others.isEmpty {
            let pairs = others.flatMap {
                [FollowPair(follower: me, followee: $0), FollowPair(follower: $0, followee: me)]
            }
            active = try await backend { try await follows.activeFollows(among: pairs, viewer: viewer) }
        }
        return profileIds.map {
            FollowState(
                profileId: $0,
                viewerIsFollowing: active.contains(FollowPair(follower: me, followee: $0)),
                followsViewer: active.contains(FollowPair(follower: $0, followee: me)))
        }
    }
}
