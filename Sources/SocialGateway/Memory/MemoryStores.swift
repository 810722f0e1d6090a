import Foundation
import SocialDomain

extension GatewayStores {
    /// These ports with profile and follow reads answered from `memory` where it can (the
    /// domain's rule applied per viewer, ``MemoryReads``) and by the store otherwise; writes and
    /// every other read go to the store as before.
    ///
    /// The stores' viewer-shaped reads stay the reference: the differential tests run every read
    /// with memory and without and compare the answers.
    func answering(from memory: GraphMemory, snapshots: any GraphSnapshotStore) -> GatewayStores {
        let reads = MemoryReads(memory: memory, snapshots: snapshots)
        var stores = self
        stores.profiles = MemoryProfileStore(reads: reads, base: profiles)
        stores.follows = MemoryFollowStore(reads: reads, base: follows)
        return stores
    }
}

/// ``SocialDomain/ProfileStore`` with profile reads from memory (``MemoryReads``).
struct MemoryProfileStore: ProfileStore {
    let reads: MemoryReads
    let base: any ProfileStore

    func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] {
        if let found = try await reads.answer({ reads.readyProfiles(ids: ids, viewer: viewer) }) { return found }
        return try await base.profiles(ids: ids, viewer: viewer)
    }

    func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile] {
        if let found = try await reads.answer({ reads.readyProfiles(handleKeys: handles, viewer: viewer) }) { return found }
        return try await base.profiles(handles: handles, viewer: viewer)
    }

    func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool {
        try await base.isHandleTaken(handleKey, viewer: viewer)
    }

    func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage {
        try await base.searchProfiles(query, viewer: viewer)
    }

    func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails {
        try await base.ownerDetails(viewer: viewer)
    }

    func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile {
        try await base.updateProfile(id: id, changes: changes, viewer: viewer)
    }
}

/// ``SocialDomain/FollowStore`` with follow pages, follow states and the viewer's own requests
/// from memory (``MemoryReads``).
struct MemoryFollowStore: FollowStore {
    let reads: MemoryReads
    let base: any FollowStore

    func followPages(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] {
        var pages: [FollowPage?] = Array(repeating: nil, count: requests.count)
        // Every page's missing records in one fill: the pages of a query level are read together.
        for _ in 0..<3 {
            var missing = MemoryReads.Missing()
            var declined = false
            for index in requests.indices where pages[index] == nil {
                switch reads.readyFollowPage(requests[index], viewer: viewer) {
                case .answer(let page): pages[index] = page
                case .needs(let lacking):
                    missing.viewer = missing.viewer ?? lacking.viewer
                    missing.profiles.formUnion(lacking.profiles)
                    missing.lists.formUnion(lacking.lists)
                case .declined: declined = true
                }
            }
            if missing.isEmpty || declined { break }
            guard try await reads.fill(missing) else { break }
        }
        let unanswered = requests.indices.filter { pages[$0] == nil }
        guard !unanswered.isEmpty else { return pages.map { $0! } }
        let read = try await base.followPages(unanswered.map { requests[$0] }, viewer: viewer)
        for (index, page) in zip(unanswered, read) { pages[index] = page }
        return pages.map { $0! }
    }

    func activeFollows(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        guard let me = viewer.userId, pairs.allSatisfy({ $0.follower == me || $0.followee == me }) else {
            return try await base.activeFollows(among: pairs, viewer: viewer)
        }
        let others = Array(Set(pairs.map { $0.follower == me ? $0.followee : $0.follower }))
        guard let states = try await reads.answer({ reads.readyFollowStates(profileIds: others, viewer: viewer) }) else {
            return try await base.activeFollows(among: pairs, viewer: viewer)
        }
        let byId = Dictionary(states.map { ($0.profileId, $0) }, uniquingKeysWith: { first, _ in first })
        return Set(pairs.filter { pair in
            pair.follower == me ? byId[pair.followee]?.viewerIsFollowing == true : byId[pair.follower]?.followsViewer == true
        })
    }

    func pendingFollowRequests(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        guard let me = viewer.userId, pairs.allSatisfy({ $0.follower == me }),
              let pending = try await reads.answer({ reads.readyPendingRequests(to: pairs.map(\.followee), viewer: viewer) })
        else { return try await base.pendingFollowRequests(among: pairs, viewer: viewer) }
        return Set(pairs.filter { pending.contains($0.followee) })
    }

    func followChanges(_ request: FollowSyncRequest, viewer: Viewer) async throws -> FollowSyncPage {
        try await base.followChanges(request, viewer: viewer)
    }

    func changeFollow(_ change: FollowChange, viewer: Viewer) async throws -> FollowOutcome {
        try await base.changeFollow(change, viewer: viewer)
    }

    func followRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> FollowRequestPage {
        try await base.followRequestPage(request, viewer: viewer)
    }

    func sentFollowRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> SentFollowRequestPage {
        try await base.sentFollowRequestPage(request, viewer: viewer)
    }

    func answerFollowRequest(from requester: UUID, approve: Bool, viewer: Viewer) async throws -> FollowRequestAnswer {
        try await base.answerFollowRequest(from: requester, approve: approve, viewer: viewer)
    }

    func changeBlock(of profileId: UUID, block: Bool, viewer: Viewer) async throws -> BlockOutcome {
        try await base.changeBlock(of: profileId, block: block, viewer: viewer)
    }

    func blockedProfilePage(_ request: TimePageRequest, viewer: Viewer) async throws -> BlockedProfilePage {
        try await base.blockedProfilePage(request, viewer: viewer)
    }
}
