import Foundation
import SocialDomain

/// Profiles, the starts of follow lists and viewers' facts, kept in memory once for every viewer
/// (issue 53): what the objects-and-associations design of Facebook's TAO keeps, with privacy
/// applied per request by the domain's rule (``MemoryReads``), never stored per viewer.
///
/// Filled from the store's unfiltered reads (``SocialDomain/GraphSnapshotStore``), bounded by
/// count and bytes (``Limits``, evicted by use: ``ClockCache``), and emptied of what each write
/// changed, by the same typed changes that keep the response cache coherent (``apply(_:)``): this
/// replica's writes before their answer (read-your-writes), every replica's through the
/// ``ChangeStream``. A read that began before an invalidation of what it read is not kept
/// (``FillTickets``). Until the stream is connected, and while it is lost, nothing is answered
/// from memory (the stores answer as before), and a reconnect empties it: writes in the gap were
/// not reported.
///
/// ```swift
/// let memory = GraphMemory(limits: .init(maxBytes: 256 << 20))
/// stream.subscribe { event in memory.handle(event) }
/// ```
public final class GraphMemory: Sendable {
    /// The bounds, each with a documented default (docs/SERVER.md, "Memory").
    public struct Limits: Sendable, Hashable {
        /// Profiles kept (each about 0.5 KiB: ``RecordBytes``).
        public var maxProfiles: Int
        /// Follow-list starts kept (each up to ``listPrefix`` follows, about 280 bytes a follow).
        public var maxLists: Int
        /// Viewers whose facts are kept (each about 84 bytes per follow, follower and block).
        public var maxViewers: Int
        /// Bytes for all of them (an estimate of what they hold, calibrated against resident
        /// memory: ``RecordBytes``), shared 40/40/15/5 between profiles, lists, viewers and handles.
        public var maxBytes: Int
        /// Follows kept at the start of each list: a page further on is read from the store.
        public var listPrefix: Int
        /// A viewer who follows, or is followed by, more profiles than this is read from the
        /// store as that viewer (their facts are not kept).
        public var factsLimit: Int

        public init(
            maxProfiles: Int = 200_000, maxLists: Int = 100_000, maxViewers: Int = 50_000, maxBytes: Int = 256 << 20,
            listPrefix: Int = 64, factsLimit: Int = 5_000
        ) {
            self.maxProfiles = maxProfiles
            self.maxLists = maxLists
            self.maxViewers = maxViewers
            self.maxBytes = maxBytes
            self.listPrefix = listPrefix
            self.factsLimit = factsLimit
        }
    }

    /// The start of one follow list, newest first, as ``MemoryReads`` walks it.
    struct ListRecord: Sendable {
        let follows: [Follow]
        /// Each follow's cursor, encoded once (``SocialDomain/PageCursor``).
        let cursors: [String]
        let isComplete: Bool

        init(list: FollowList, follows: [Follow], isComplete: Bool) {
            self.follows = follows
            self.cursors = follows.map { PageCursor.follow(list, $0.keyset).encoded }
            self.isComplete = isComplete
        }
    }

    /// A viewer's facts, or the fact that there are too many to keep.
    enum FactsRecord: Sendable {
        case facts(ViewerFacts)
        case tooLarge
    }

    /// What memory knows of a key: its value, that there is none, or nothing.
    enum Lookup<Value> {
        case found(Value)
        case absent
        case unknown
    }

    /// What a key of the fill tickets names (one stripe space for every kind).
    enum Key: Hashable {
        case profile(UUID)
        case handle(String)
        case list(FollowList)
        case viewer(UUID)
        /// Every handle no profile held (a `search` change: some handle may have been taken).
        case absentHandles
    }

    struct State {
        var profiles: ClockCache<UUID, Profile>
        /// Handle keys to ids. An entry is checked against the profile it names when read (the
        /// profile's own handle must still be the key), so a handle that changed hands is never
        /// answered from here; a profile's change forgets its old handle besides.
        var handles: ClockCache<String, UUID>
        /// Handle keys no profile holds: forgotten whenever any handle may have been taken
        /// (`search`), the one change a handle's entry cannot check itself against.
        var absentHandles: ClockCache<String, Bool>
        /// Ids no profile has (a profile's insert reports `follow-lists`, which empties them).
        var absentProfiles: ClockCache<UUID, Bool>
        var lists: ClockCache<FollowList, ListRecord>
        var viewers: ClockCache<UUID, FactsRecord>
        var tickets = FillTickets()
        /// False until the change stream is connected (where it follows a feed) and while it is lost.
        var answering: Bool
        var counters = MemoryCounters()
    }

    public let limits: Limits
    private let state: LockedState<State>

    /// - Parameter answering: false where the change stream follows a backend's feed: nothing is
    ///   answered until ``handle(_:)`` sees it connected.
    public init(limits: Limits = Limits(), answering: Bool = true) {
        self.limits = limits
        let bytes = max(limits.maxBytes, 1 << 20)
        state = LockedState(State(
            profiles: ClockCache(maxCount: limits.maxProfiles, maxBytes: bytes / 5 * 2),
            handles: ClockCache(maxCount: limits.maxProfiles, maxBytes: bytes / 40),
            absentHandles: ClockCache(maxCount: max(limits.maxProfiles / 10, 1), maxBytes: bytes / 80),
            absentProfiles: ClockCache(maxCount: max(limits.maxProfiles / 10, 1), maxBytes: bytes / 40),
            lists: ClockCache(maxCount: limits.maxLists, maxBytes: bytes / 5 * 2),
            viewers: ClockCache(maxCount: limits.maxViewers, maxBytes: bytes / 20 * 3),
            answering: answering))
    }

    /// Runs `body` under the lock, with every kept record at hand: what one read looks up, it
    /// looks up under one lock (a page walks its list and its profiles together). `body` must
    /// not wait for anything.
    func withState<T>(_ body: (inout State) -> T) -> T {
        state.withLock(body)
    }

    /// The ticket a fill takes before its store read; nil while nothing is answered from memory.
    func ticket() -> FillTickets.Ticket? {
        state.withLock { $0.answering ? $0.tickets.ticket : nil }
    }

    /// Whether reads are answered from memory now.
    public var isAnswering: Bool { state.withLock { $0.answering } }

    // MARK: Fills

    /// Keeps profiles read under `ticket`, those no write has changed since.
    func keep(_ profiles: some Sequence<Profile>, readUnder ticket: FillTickets.Ticket) {
        state.withLock { state in
            guard state.answering else { return }
            for profile in profiles { Self.keep(profile, readUnder: ticket, in: &state) }
        }
    }

    private static func keep(_ profile: Profile, readUnder ticket: FillTickets.Ticket, in state: inout State) {
        guard state.tickets.mayKeep(Key.profile(profile.id), readUnder: ticket) else { return }
        var kept = profile
        kept.access = .full
        state.profiles.insert(kept, for: profile.id, bytes: Self.bytes(of: profile))
        if let key = BatchGetProfiles.handleKey(profile.handle), state.tickets.mayKeep(Key.handle(key), readUnder: ticket) {
            state.handles.insert(profile.id, for: key, bytes: RecordBytes.handle + key.utf8.count)
            _ = state.absentHandles.remove(key)
        }
    }

    /// Keeps that no profile has these ids, or holds these handle keys, as read under `ticket`.
    func keepAbsent(ids: some Sequence<UUID> = [], handles: some Sequence<String> = [], readUnder ticket: FillTickets.Ticket) {
        state.withLock { state in
            guard state.answering else { return }
            for id in ids where state.tickets.mayKeep(Key.profile(id), readUnder: ticket) {
                state.absentProfiles.insert(true, for: id, bytes: RecordBytes.absent)
            }
            for key in handles
            where state.tickets.mayKeep(Key.handle(key), readUnder: ticket) && state.tickets.mayKeep(Key.absentHandles, readUnder: ticket) {
                state.absentHandles.insert(true, for: key, bytes: RecordBytes.handle + key.utf8.count)
            }
        }
    }

    /// Keeps list starts (and their profiles) read under `ticket`.
    func keep(_ snapshots: some Sequence<FollowListSnapshot>, readUnder ticket: FillTickets.Ticket) {
        // Records (and their cursors) made before the lock is taken.
        let records = snapshots.map { ($0, ListRecord(list: $0.list, follows: $0.follows, isComplete: $0.isComplete)) }
        state.withLock { state in
            guard state.answering else { return }
            for (snapshot, record) in records {
                for profile in snapshot.profiles.values { Self.keep(profile, readUnder: ticket, in: &state) }
                guard state.tickets.mayKeep(Key.list(snapshot.list), readUnder: ticket) else { continue }
                state.lists.insert(record, for: snapshot.list, bytes: RecordBytes.list + RecordBytes.listFollow * snapshot.follows.count)
            }
        }
    }

    /// Keeps a viewer's facts (nil: too many to keep) read under `ticket`.
    func keep(facts: ViewerFacts?, of viewer: UUID, readUnder ticket: FillTickets.Ticket) {
        state.withLock { state in
            guard state.answering, state.tickets.mayKeep(Key.viewer(viewer), readUnder: ticket) else { return }
            if let facts {
                let size = facts.follows.count + facts.followers.count + facts.blocks.count + facts.pendingRequests.count
                state.viewers.insert(.facts(facts), for: viewer, bytes: RecordBytes.viewer + RecordBytes.viewerFact * size)
            } else {
                state.viewers.insert(.tooLarge, for: viewer, bytes: RecordBytes.absent)
            }
        }
    }

    /// What each kind of record costs in memory, the estimate ``Limits/maxBytes`` bounds.
    ///
    /// Calibrated against the process's anonymous resident memory (`scripts/memory-footprint`,
    /// docs/performance/2026-12-02-graph-memory.md): at 100,000 profiles, 99,435 profiles, 21,578
    /// list starts and 1,000 viewers kept took 178 MiB more than the same reads with memory off,
    /// where the first estimate (a profile 256 bytes plus its strings) said 104 MiB; each figure
    /// below is that first one times 1.75, so the bound holds in real bytes: a record's value,
    /// its key, its slot in the cache's dictionary and clock, and the allocator's rounding.
    enum RecordBytes {
        static let profile = 448
        static let handle = 112
        static let absent = 84
        static let list = 168
        static let listFollow = 280
        static let viewer = 224
        static let viewerFact = 84
    }

    /// An estimate of what one kept profile holds (``RecordBytes/profile`` and its strings).
    static func bytes(of profile: Profile) -> Int {
        RecordBytes.profile + profile.handle.utf8.count + (profile.displayName?.utf8.count ?? 0) + (profile.bio?.utf8.count ?? 0)
            + (profile.avatarURL?.utf8.count ?? 0) + (profile.homeGym?.utf8.count ?? 0)
            + (profile.favoriteStyle?.utf8.count ?? 0)
    }

    // MARK: Invalidation

    /// Forgets what `changes` changed: a profile's record, its handle and its viewer facts (its
    /// blocks and requests are reported as its profile), a list and the facts of its owner. A
    /// profile created, deleted or turned public or private (`follow-lists`) or a change this
    /// version does not know empties everything.
    public func apply(_ changes: some Sequence<DataChange>) {
        state.withLock { state in
            for change in changes {
                switch change {
                case .profile(let id):
                    Self.forgetProfile(id, in: &state)
                    Self.forget(.viewer(id), in: &state) { $0.viewers.remove(id) }
                case .followers(let id):
                    let list = FollowList(.followers, of: id)
                    Self.forget(.list(list), in: &state) { $0.lists.remove(list) }
                    Self.forget(.viewer(id), in: &state) { $0.viewers.remove(id) }
                case .following(let id):
                    let list = FollowList(.following, of: id)
                    Self.forget(.list(list), in: &state) { $0.lists.remove(list) }
                    Self.forget(.viewer(id), in: &state) { $0.viewers.remove(id) }
                case .followLists:
                    Self.clear(&state)
                case .search:
                    // A handle or name changed, or a profile came or went: a handle known to be
                    // free may be taken now. A kept handle's entry checks itself against its
                    // profile when read, and the profile's own change forgot its old handle, so
                    // those stay (a bio update, 5% of the mixed load, used to empty them all).
                    Self.forget(.absentHandles, in: &state) { $0.absentHandles.removeAll() }
                case .post, .posts, .allFeeds, .comments:
                    // Not kept here.
                    break
                case .other(let tag):
                    if let id = Self.subject(of: tag, prefixes: ["followRequests:", "sentFollowRequests:", "blocked:"]) {
                        Self.forget(.viewer(id), in: &state) { $0.viewers.remove(id) }
                    } else {
                        Self.clear(&state)
                    }
                }
            }
        }
    }

    /// Follows the change stream: its writes' changes, and where it follows a feed, the feed's
    /// connection (answer again, emptied) and loss (answer nothing until it is back).
    public func handle(_ event: ChangeEvent) {
        switch event {
        case .changed(let changes, _):
            apply(changes)
        case .connected:
            state.withLock { state in
                Self.clear(&state)
                state.answering = true
            }
        case .lost:
            state.withLock { state in
                Self.clear(&state)
                state.answering = false
            }
        case .unreadable:
            state.withLock { Self.clear(&$0) }
        case .happened, .sessionsEnded:
            break
        }
    }

    /// Forgets everything (tests, and a reconnected feed).
    public func clear() { state.withLock { Self.clear(&$0) } }

    private static func clear(_ state: inout State) {
        state.tickets.invalidateAll()
        state.profiles.removeAll()
        state.handles.removeAll()
        state.absentHandles.removeAll()
        state.absentProfiles.removeAll()
        state.lists.removeAll()
        state.viewers.removeAll()
    }

    private static func forgetProfile(_ id: UUID, in state: inout State) {
        if let old = state.profiles.value(for: id), let key = BatchGetProfiles.handleKey(old.handle) {
            forget(.handle(key), in: &state) { _ = $0.handles.remove(key) }
        }
        forget(.profile(id), in: &state) {
            $0.profiles.remove(id)
            $0.absentProfiles.remove(id)
        }
    }

    private static func forget(_ key: Key, in state: inout State, _ remove: (inout State) -> Void) {
        state.tickets.invalidate(key)
        remove(&state)
    }

    private static func subject(of tag: String, prefixes: [String]) -> UUID? {
        for prefix in prefixes where tag.hasPrefix(prefix) {
            return UUID(uuidString: String(tag.dropFirst(prefix.count)))
        }
        return nil
    }

    // MARK: Figures

    /// What is kept now, and the hits and misses so far (for `/metrics` and the docs' figures).
    public var statistics: MemoryStatistics {
        state.withLock { state in
            MemoryStatistics(
                profiles: state.profiles.count, lists: state.lists.count, viewers: state.viewers.count,
                bytes: state.profiles.bytes + state.handles.bytes + state.absentHandles.bytes + state.absentProfiles.bytes + state.lists.bytes
                    + state.viewers.bytes,
                evictions: state.profiles.evictions + state.lists.evictions + state.viewers.evictions,
                counters: state.counters)
        }
    }
}

extension GraphMemory.State {
    /// What memory knows of profile `id` (marked used, counted).
    mutating func profile(_ id: UUID) -> GraphMemory.Lookup<Profile> {
        if let found = profiles.value(for: id) {
            counters.count(hits: 1, misses: 0, of: .profiles)
            return .found(found)
        }
        if absentProfiles.value(for: id) != nil { return .absent }
        counters.count(hits: 0, misses: 1, of: .profiles)
        return .unknown
    }

    /// What memory knows of the profile with the handle key `key`.
    mutating func profile(handleKey key: String) -> GraphMemory.Lookup<Profile> {
        guard let id = handles.value(for: key) else {
            if absentHandles.value(for: key) != nil { return .absent }
            counters.count(hits: 0, misses: 1, of: .profiles)
            return .unknown
        }
        guard case .found(let profile) = profile(id), BatchGetProfiles.handleKey(profile.handle) == key else {
            return .unknown
        }
        return .found(profile)
    }

    /// The kept start of `list`; nil when not kept.
    mutating func list(_ list: FollowList) -> GraphMemory.ListRecord? {
        let found = lists.value(for: list)
        counters.count(hits: found == nil ? 0 : 1, misses: found == nil ? 1 : 0, of: .lists)
        return found
    }

    /// The viewer's kept facts; nil when not kept.
    mutating func facts(_ viewer: UUID) -> GraphMemory.FactsRecord? {
        let found = viewers.value(for: viewer)
        counters.count(hits: found == nil ? 0 : 1, misses: found == nil ? 1 : 0, of: .viewers)
        return found
    }
}
