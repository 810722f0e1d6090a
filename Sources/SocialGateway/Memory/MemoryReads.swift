import Foundation
import SocialDomain

/// Reads answered from ``GraphMemory`` for one viewer, by the domain's rule (``ProfileAccess``:
/// what a profile shows; an edge shows when the viewer sees both of its ends).
///
/// Each read has two forms. The ready form (``ReadyGraphReads``, for resolvers that answer at
/// once) looks only at what memory keeps, under one lock, and says what it lacks. The async
/// form (``MemoryStores``, behind the ports) reads what is lacking from the store's unfiltered
/// reads (``SocialDomain/GraphSnapshotStore``), keeps it, and answers. Either answers nothing
/// (``Outcome/declined``) when memory cannot: it is not answering, the viewer's facts are too
/// large to keep, a page lies past a kept list start. The caller then asks the store as that
/// viewer, exactly as without memory.
struct MemoryReads: Sendable {
    let memory: GraphMemory
    let snapshots: any GraphSnapshotStore

    /// What the rule needs of the viewer: nothing for an anonymous one.
    enum ViewerView: Sendable {
        case anonymous
        case signedIn(UUID, ViewerFacts)
    }

    /// What a ready read lacks.
    struct Missing: Sendable {
        var viewer: UUID?
        var profiles: Set<UUID> = []
        var handles: Set<String> = []
        var lists: Set<FollowList> = []
        var isEmpty: Bool { viewer == nil && profiles.isEmpty && handles.isEmpty && lists.isEmpty }
    }

    /// A ready read's result.
    enum Outcome<Value> {
        case answer(Value)
        /// Memory could answer once these are read.
        case needs(Missing)
        /// Memory cannot answer this read.
        case declined
    }

    // MARK: The rule

    /// How much of `profile` the viewer may see: the domain's rule (``SocialRules/access(_:)``),
    /// from the viewer's facts kept in memory.
    static func access(_ profile: Profile, _ view: ViewerView) -> ProfileAccess? {
        switch view {
        case .anonymous:
            return SocialRules.access(VisibilityFacts(viewer: .anonymous, profileId: profile.id, isPublic: profile.isPublic))
        case .signedIn(let me, let facts):
            return SocialRules.access(VisibilityFacts(
                viewerId: me, profileId: profile.id, isPublic: profile.isPublic,
                viewerFollows: facts.follows.contains(profile.id), blocked: facts.blocks.contains(profile.id)))
        }
    }

    /// `profile` as the viewer may see it: whole, its card, or nothing.
    static func shown(_ profile: Profile, _ view: ViewerView) -> Profile? {
        switch access(profile, view) {
        case .full?: profile
        case .card?: profile.card()
        case nil: nil
        }
    }

    // MARK: Ready reads

    /// The viewer's view from what memory keeps.
    static func view(of viewer: Viewer, in state: inout GraphMemory.State, missing: inout Missing) -> ViewerView?? {
        guard state.answering else { return .some(nil) }
        guard let me = viewer.userId else { return .anonymous }
        switch state.facts(me) {
        case .facts(let facts): return .signedIn(me, facts)
        case .tooLarge: return .some(nil)
        case nil:
            missing.viewer = me
            return nil
        }
    }

    /// Runs a ready read under memory's lock: the viewer's view, then `body` with it.
    func ready<Value>(
        _ viewer: Viewer, _ body: (inout GraphMemory.State, ViewerView, inout Missing) -> Value?
    ) -> Outcome<Value> {
        memory.withState { state in
            var missing = Missing()
            switch Self.view(of: viewer, in: &state, missing: &missing) {
            case .some(.some(let view)):
                let value = body(&state, view, &missing)
                if !missing.isEmpty { return .needs(missing) }
                return value.map { .answer($0) } ?? .declined
            case .some(nil): return .declined
            case nil: return .needs(missing)
            }
        }
    }

    /// The profiles among `ids` the viewer may see, as they may see them.
    func readyProfiles(ids: [UUID], viewer: Viewer) -> Outcome<[UUID: Profile]> {
        ready(viewer) { state, view, missing in Self.profiles(ids: ids, in: &state, view, &missing) }
    }

    /// The profiles with the handle keys `keys` the viewer may see, as they may see them.
    func readyProfiles(handleKeys keys: [String], viewer: Viewer) -> Outcome<[String: Profile]> {
        ready(viewer) { state, view, missing in Self.profiles(handleKeys: keys, in: &state, view, &missing) }
    }

    /// The viewer's follow states with `ids` by the edge rule: a follow either way shows when
    /// the viewer sees the profile (and sees itself).
    func readyFollowStates(profileIds ids: [UUID], viewer: Viewer) -> Outcome<[FollowState]> {
        ready(viewer) { state, view, missing in Self.followStates(ids, in: &state, view, &missing) }
    }

    // The bodies of the ready reads, under memory's lock: one read each, or several under one
    // lock (``readyCardView(_:viewer:pages:)``).

    static func profiles(ids: [UUID], in state: inout GraphMemory.State, _ view: ViewerView, _ missing: inout Missing) -> [UUID: Profile] {
        var found: [UUID: Profile] = [:]
        for id in ids {
            switch state.profile(id) {
            case .found(let record): if let shown = Self.shown(record, view) { found[id] = shown }
            case .absent: break
            case .unknown: missing.profiles.insert(id)
            }
        }
        return found
    }

    static func profiles(
        handleKeys keys: [String], in state: inout GraphMemory.State, _ view: ViewerView, _ missing: inout Missing
    ) -> [String: Profile] {
        var found: [String: Profile] = [:]
        for key in keys {
            switch state.profile(handleKey: key) {
            case .found(let record): if let shown = Self.shown(record, view) { found[key] = shown }
            case .absent: break
            case .unknown: missing.handles.insert(key)
            }
        }
        return found
    }

    static func followStates(_ ids: [UUID], in state: inout GraphMemory.State, _ view: ViewerView, _ missing: inout Missing) -> [FollowState] {
        guard case .signedIn(let me, let facts) = view else {
            return ids.map { FollowState(profileId: $0, viewerIsFollowing: false, followsViewer: false) }
        }
        return ids.map { id in
            guard id != me else { return FollowState(profileId: id, viewerIsFollowing: false, followsViewer: false) }
            let seen: Bool
            switch state.profile(id) {
            case .found(let record): seen = SocialRules.sees(Self.access(record, view))
            case .absent: seen = false
            case .unknown:
                missing.profiles.insert(id)
                seen = false
            }
            return FollowState(
                profileId: id, viewerIsFollowing: seen && facts.follows.contains(id),
                followsViewer: seen && facts.followers.contains(id))
        }
    }

    /// Which of the viewer's own requests to `ids` are pending.
    func readyPendingRequests(to ids: [UUID], viewer: Viewer) -> Outcome<Set<UUID>> {
        ready(viewer) { _, view, _ in
            guard case .signedIn(_, let facts) = view else { return [] }
            return Set(ids.filter { facts.pendingRequests.contains($0) })
        }
    }

    // MARK: Filling

    /// Reads what a ready read lacked, under one ticket, and keeps it. False when memory stopped
    /// answering meanwhile.
    func fill(_ missing: Missing) async throws -> Bool {
        guard let ticket = memory.ticket() else { return false }
        if let viewer = missing.viewer {
            let facts = try await snapshots.viewerFacts(viewer, limit: memory.limits.factsLimit)
            memory.keep(facts: facts, of: viewer, readUnder: ticket)
        }
        if !missing.lists.isEmpty {
            let read = try await snapshots.followListSnapshots(Array(missing.lists), limit: memory.limits.listPrefix)
            memory.keep(read.values, readUnder: ticket)
            // A list whose owner is gone is an empty list, kept so it is not asked again.
            let absent = missing.lists.subtracting(read.keys).map {
                FollowListSnapshot(list: $0, follows: [], profiles: [:], isComplete: true)
            }
            if !absent.isEmpty { memory.keep(absent, readUnder: ticket) }
        }
        if !missing.profiles.isEmpty {
            let read = try await snapshots.snapshotProfiles(ids: Array(missing.profiles))
            memory.keep(read.values, readUnder: ticket)
            memory.keepAbsent(ids: missing.profiles.subtracting(read.keys), readUnder: ticket)
        }
        if !missing.handles.isEmpty {
            let read = try await snapshots.snapshotProfiles(handles: Array(missing.handles))
            memory.keep(read.values, readUnder: ticket)
            memory.keepAbsent(handles: missing.handles.subtracting(read.keys), readUnder: ticket)
        }
        return true
    }

    /// A ready read, filling what it lacks (twice at most by default: a page's profiles are known
    /// only once its list is; a read of several steps needs a round per step); nil when memory
    /// cannot answer it.
    func answer<Value>(rounds: Int = 3, _ read: () -> Outcome<Value>) async throws -> Value? {
        for _ in 0..<rounds {
            switch read() {
            case .answer(let value): return value
            case .declined: return nil
            case .needs(let missing):
                guard try await fill(missing) else { return nil }
            }
        }
        return nil
    }
}
