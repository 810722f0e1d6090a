import Foundation
import SocialDomain

/// ``SocialDomain/ReadyGraphReads`` on ``GraphMemory``: what memory keeps, answered at once, or
/// nil (the resolver then loads the usual way, which fills memory).
struct MemoryReadyReads: ReadyGraphReads {
    let reads: MemoryReads

    func readyProfiles(ids: [UUID], viewer: Viewer) -> [UUID: Profile]? {
        if case .answer(let found) = reads.readyProfiles(ids: ids, viewer: viewer) { return found }
        return nil
    }

    func readyProfiles(handleKeys: [String], viewer: Viewer) -> [String: Profile]? {
        if case .answer(let found) = reads.readyProfiles(handleKeys: handleKeys, viewer: viewer) { return found }
        return nil
    }

    func readyFollowPage(_ request: FollowPageRequest, viewer: Viewer) -> FollowPage? {
        if case .answer(let page) = reads.readyFollowPage(request, viewer: viewer) { return page }
        return nil
    }

    func readyFollowStates(profileIds: [UUID], viewer: Viewer) -> [FollowState]? {
        if case .answer(let states) = reads.readyFollowStates(profileIds: profileIds, viewer: viewer) { return states }
        return nil
    }

    func readyPendingRequests(to ids: [UUID], viewer: Viewer) -> Set<UUID>? {
        if case .answer(let pending) = reads.readyPendingRequests(to: ids, viewer: viewer) { return pending }
        return nil
    }
}
