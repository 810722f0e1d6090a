import Foundation
@testable import SocialDomain

/// A small in-memory implementation of the three ports for use-case tests: it records calls
/// and can be told to fail, so tests can see what a use case asked of its store.
actor InMemorySocialStore: ProfileStore, FollowStore, MediaStore {
    struct Boom: Error {}

    var profilesById: [UUID: Profile] = [:]
    var ownerDetailsById: [UUID: ProfileOwnerDetails] = [:]
    var follows: [FollowPair: Follow] = [:]
    var objects: [String: Data] = [:]
    var failDeletes = false
    var calls: [String] = []
    var failUpdates = false
    var failReads = false

    func add(_ profile: Profile) { profilesById[profile.id] = profile }
    func setFailUpdates(_ value: Bool) { failUpdates = value }
    func setFailReads(_ value: Bool) { failReads = value }
    func setFailDeletes(_ value: Bool) { failDeletes = value }
    func resetCalls() { calls = [] }

    func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] {
        calls.append("profilesByID")
        if failReads { throw Boom() }
        return Dictionary(uniqueKeysWithValues: ids.compactMap { id in
            profilesById[id].flatMap { $0.access(for: viewer, viewerFollows: false) == .full ? (id, $0) : nil }
        })
    }

    func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile] {
        calls.append("profilesByHandle")
        let wanted = Set(handles.map { $0.lowercased() })
        var result: [String: Profile] = [:]
        for p in profilesById.values where wanted.contains(p.handle.lowercased()) && p.access(for: viewer, viewerFollows: false) == .full {
            result[p.handle.lowercased()] = p
        }
        return result
    }

    func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool {
        calls.append("handleTaken")
        if failReads { throw Boom() }
        return profilesById.values.contains { $0.handle.lowercased() == handleKey && $0.id != viewer.userId }
    }

    func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage {
        calls.append("searchProfiles")
        let needle = query.text.lowercased()
        let hits = profilesById.values
            .filter { $0.isPublic && ($0.handle.lowercased().contains(needle) || ($0.displayName ?? "").lowercased().contains(needle)) }
            .sorted { (query.rank(of: $0.handle), $0.handle.lowercased()) < (query.rank(of: $1.handle), $1.handle.lowercased()) }
            .filter { p in query.after.map { (query.rank(of: p.handle), p.handle.lowercased()) > ($0.rank, $0.handleKey) } ?? true }
        return SearchPage(edges: hits.prefix(query.limit).map { SearchEdge(profile: $0, query: query) },
                          hasNextPage: hits.count > query.limit, hasPreviousPage: query.after != nil)
    }

    func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile {
        calls.append("updateProfile")
        if failUpdates { throw Boom() }
        guard let current = profilesById[id] else { throw DomainError.profileNotFound }
        guard viewer.userId == id else { throw DomainError.notProfileOwner }
        if let handle = changes.handle,
           profilesById.values.contains(where: { $0.id != id && $0.handle.lowercased() == handle.lowercased() }) {
            throw DomainError.handleTaken
        }
        let updated = changes.applied(to: current)
        profilesById[id] = updated
        ownerDetailsById[id] = changes.ownerDetails.applied(to: ownerDetailsById[id] ?? ProfileOwnerDetails())
        return updated
    }

    func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails {
        calls.append("ownerDetails")
        if failReads { throw Boom() }
        return viewer.userId.flatMap { ownerDetailsById[$0] } ?? ProfileOwnerDetails()
    }

    func followChanges(_ request: FollowSyncRequest, viewer: Viewer) async throws -> FollowSyncPage {
        calls.append("followChanges")
        return FollowSyncPage(records: [], hasNextPage: false)
    }

    func followPages(_ requests: [FollowPageRequest], viewer: Viewer) async throws -> [FollowPage] {
        calls.append("followPages")
        return requests.map { FollowPage(list: $0.list, edges: [], hasNextPage: false, hasPreviousPage: false, totalCount: 0) }
    }

    func activeFollows(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        calls.append("activeFollows")
        return Set(pairs.filter { follows[$0]?.isActive == true })
    }

    // Follow requests: this store makes none (the domain tests check the use cases' own rules;
    // the stores' suites, requests themselves).
    func pendingFollowRequests(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> { [] }
    func followRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> FollowRequestPage {
        FollowRequestPage(requests: [], hasNextPage: false, hasPreviousPage: false, totalCount: 0)
    }
    func sentFollowRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> SentFollowRequestPage {
        SentFollowRequestPage(requests: [], hasNextPage: false, hasPreviousPage: false, totalCount: 0)
    }
    func answerFollowRequest(from requester: UUID, approve: Bool, viewer: Viewer) async throws -> FollowRequestAnswer {
        throw DomainError.followRequestNotFound
    }
    // Blocks: none here either (the stores' suites test them).
    func changeBlock(of profileId: UUID, block: Bool, viewer: Viewer) async throws -> BlockOutcome {
        throw DomainError.profileNotFound
    }
    func blockedProfilePage(_ request: TimePageRequest, viewer: Viewer) async throws -> BlockedProfilePage {
        BlockedProfilePage(blocked: [], hasNextPage: false, hasPreviousPage: false, totalCount: 0)
    }

    func changeFollow(_ change: FollowChange, viewer: Viewer) async throws -> FollowOutcome {
        calls.append("changeFollow")
        let now: Int64 = 1
        var follow = follows[change.pair] ?? Follow(
            id: UUID(), followerId: change.pair.follower, followeeId: change.pair.followee,
            createdAtMicroseconds: now, deletedAtMicroseconds: now)
        switch change.action {
        case .follow: follow.deletedAtMicroseconds = nil
        case .unfollow: follow.deletedAtMicroseconds = follow.deletedAtMicroseconds ?? now
        case .toggle: follow.deletedAtMicroseconds = follow.isActive ? now : nil
        }
        follows[change.pair] = follow
        return FollowOutcome(isFollowing: follow.isActive, follower: nil, followee: nil)
    }

    func putMedia(_ bytes: Data, at path: MediaPath, viewer: Viewer) async throws -> String {
        calls.append("putMedia \(path.kind)")
        objects[path.description] = bytes
        return "http://127.0.0.1:8080/\(path.kind.bucket)/\(path)"
    }

    func deleteMedia(at path: MediaPath, viewer: Viewer) async throws {
        calls.append("deleteMedia \(path.kind)")
        if failDeletes { throw Boom() }
        objects[path.description] = nil
    }
}

enum Fixture {
    static let alice = UUID(uuidString: "a11ce000-0000-4000-8000-000000000001")!
    static let bob = UUID(uuidString: "b0b00000-0000-4000-8000-000000000002")!
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func profile(_ id: UUID, _ handle: String, isPublic: Bool = true, displayName: String? = nil) -> Profile {
        Profile(id: id, handle: handle, displayName: displayName, isPublic: isPublic, createdAt: t0, updatedAt: t0)
    }

    static func store() async -> InMemorySocialStore {
        let store = InMemorySocialStore()
        await store.add(profile(alice, "alice_wonder", displayName: "Alice Wonderland"))
        await store.add(profile(bob, "bob_builder", displayName: "Bob Builder"))
        return store
    }

    static let aliceViewer = Viewer.user(id: alice, token: "token-alice")
    static let bobViewer = Viewer.user(id: bob, token: "token-bob")
}

/// Runs `body` and returns the DomainError it threw (nil if none or another error).
func domainError(_ body: () async throws -> Void) async -> DomainError? {
    do {
        try await body()
        return nil
    } catch let error as DomainError {
        return error
    } catch {
        return nil
    }
}
