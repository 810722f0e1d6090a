import Foundation

/// Reads a backend can answer at once, without waiting: the gateway's memory of the graph
/// (issue 53). Each answers nil when it cannot; the caller then reads through the usual port,
/// which may wait.
///
/// Why a port of its own: a resolver that can answer without waiting costs the GraphQL engine no
/// task, no suspension and no loader wave (``FollowStore`` and ``ProfileStore`` calls always
/// wait). The answers follow the same rule as the ports': the viewer's own visibility
/// (``ProfileAccess``) and the edge rule.
///
/// ```swift
/// if let page = GetFollowPages.ready(request, viewer: viewer, from: memory) { ... }
/// ```
public protocol ReadyGraphReads: Sendable {
    /// The profiles among `ids` the viewer may see, as they may see them; nil when not known.
    func readyProfiles(ids: [UUID], viewer: Viewer) -> [UUID: Profile]?
    /// The profiles with these handle keys (``BatchGetProfiles/handleKey(_:)``) the viewer may see.
    func readyProfiles(handleKeys: [String], viewer: Viewer) -> [String: Profile]?
    /// One follow page, as ``FollowStore/followPages(_:viewer:)`` answers it.
    func readyFollowPage(_ request: FollowPageRequest, viewer: Viewer) -> FollowPage?
    /// The viewer's follow states with `profileIds`, in their order.
    func readyFollowStates(profileIds: [UUID], viewer: Viewer) -> [FollowState]?
    /// Which of `ids` the viewer has a pending request to.
    func readyPendingRequests(to ids: [UUID], viewer: Viewer) -> Set<UUID>?
}
