import Foundation
import SocialDomain

extension MemoryReads {
    /// One follow page from what memory keeps, by the domain's rule (``SocialRules``): a list of an
    /// owner the viewer does not see whole has no edges (and `totalCount` 0); otherwise its edges
    /// are the follows whose other end the viewer sees (the edge rule: both ends seen), newest
    /// first, and `totalCount` is the owner's stored counter. The page over-reads the kept start
    /// until it has `limit + 1` edges it may show; when the start runs out first and is not the
    /// whole list, memory declines and the page is the store's.
    func readyFollowPage(_ request: FollowPageRequest, viewer: Viewer) -> Outcome<FollowPage> {
        ready(viewer) { state, view, missing in Self.followPage(request, in: &state, view, &missing) }
    }

    /// ``readyFollowPage(_:viewer:)``'s body, under memory's lock.
    static func followPage(
        _ request: FollowPageRequest, in state: inout GraphMemory.State, _ view: ViewerView, _ missing: inout Missing
    ) -> FollowPage? {
        guard case .signedIn(let me, let facts) = view else { return nil }
        let owner: Profile
        switch state.profile(request.list.owner) {
        case .found(let record): owner = record
        case .absent: return FollowPage.assemble(request: request, fetched: [], totalCount: 0)
        case .unknown:
            missing.profiles.insert(request.list.owner)
            return nil
        }
        let ownerAccess = Self.access(owner, view)
        guard SocialRules.showsLists(of: ownerAccess) else { return FollowPage.assemble(request: request, fetched: [], totalCount: 0) }
        guard let start = state.list(request.list) else {
            missing.lists.insert(request.list)
            return nil
        }
        let fetched = Self.walk(start, request) { id in
            switch state.profile(id) {
            case .found(let record):
                guard SocialRules.showsEdge(ownerAccess, Self.access(record, view)) else { return .hidden }
                let edgeState = FollowState(
                    profileId: id, viewerIsFollowing: id != me && facts.follows.contains(id),
                    followsViewer: id != me && facts.followers.contains(id))
                return .shown(record, edgeState)
            case .absent: return .hidden
            case .unknown:
                missing.profiles.insert(id)
                return .unknown
            }
        }
        guard let fetched else { return nil }
        let stored = request.list.kind == .followers ? owner.followerCount : owner.followingCount
        return FollowPage.assemble(request: request, fetched: fetched, totalCount: SocialRules.listTotal(storedCount: stored, access: ownerAccess))
    }

    /// What a page shows of the profile at the other end of a follow.
    enum Listed {
        case shown(Profile, FollowState)
        case hidden
        /// Not kept: the walk stops and says so.
        case unknown
    }

    /// The `limit + 1` edges a page is assembled from, in the request's direction (newest first
    /// forward, oldest first backward), or nil when the kept start cannot tell them (or a
    /// profile on the way is not kept).
    static func walk(_ start: GraphMemory.ListRecord, _ request: FollowPageRequest, _ listed: (UUID) -> Listed) -> [FollowEdge]? {
        let follows = start.follows
        let cursors = start.cursors
        let want = request.page.rowsToFetch
        var fetched: [FollowEdge] = []
        fetched.reserveCapacity(min(want, follows.count))
        var blind = false
        /// True when the page is full.
        func take(_ index: Int) -> Bool {
            let follow = follows[index]
            let id = request.list.kind == .followers ? follow.followerId : follow.followeeId
            switch listed(id) {
            case .shown(let profile, let state):
                fetched.append(FollowEdge(follow: follow, profile: profile, cursor: cursors[index], viewerState: state))
            case .hidden: break
            case .unknown: blind = true
            }
            return fetched.count == want
        }
        switch request.page.direction {
        case .forward:
            // Past the cursor: the follows older than it. The kept start holds them all only up
            // to its last follow: a cursor older than that is the store's.
            var index = 0
            if let cursor = request.page.cursor {
                guard let first = follows.firstIndex(where: { isOlder($0.keyset, than: cursor) }) else {
                    return start.isComplete ? [] : nil
                }
                index = first
            }
            while index < follows.count {
                if take(index), !blind { return fetched }
                index += 1
            }
            return start.isComplete && !blind ? fetched : nil
        case .backward:
            // Before the cursor: the follows newer than it, closest first. Without a cursor, the
            // oldest: only a whole list has them. The kept start holds every follow newer than a
            // cursor only when one of its follows is not newer (or it is the whole list).
            var index = follows.count - 1
            if let cursor = request.page.cursor,
               let notNewer = follows.firstIndex(where: { !isNewer($0.keyset, than: cursor) }) {
                index = notNewer - 1
            } else if !start.isComplete {
                return nil
            }
            while index >= 0 {
                if take(index), !blind { return fetched }
                index -= 1
            }
            return blind ? nil : fetched
        }
    }

    /// Keyset order without lower-casing ids unless the times tie (they rarely do).
    static func isOlder(_ key: FollowKeyset, than other: FollowKeyset) -> Bool {
        key.createdAtMicroseconds != other.createdAtMicroseconds
            ? key.createdAtMicroseconds < other.createdAtMicroseconds : key < other
    }

    static func isNewer(_ key: FollowKeyset, than other: FollowKeyset) -> Bool {
        isOlder(other, than: key)
    }
}
