import Foundation
import SocialDomain
import Synchronization

/// A profile port that forwards every call to `base`, except that handle lookups go through
/// `around`: tests make them late (``slow(_:delay:)``) or hold them at a ``LookupGate``, so that
/// concurrent requests overlap as the test needs.
struct HookedProfiles: ProfileStore {
    let base: any ProfileStore
    let around: @Sendable (_ lookUp: @Sendable () async throws -> [String: Profile]) async throws -> [String: Profile]

    /// Handle lookups read first and answer `delay` late: the answer is of the moment the read began.
    static func slow(_ base: any ProfileStore, delay: Duration) -> HookedProfiles {
        HookedProfiles(base: base) { lookUp in
            let profiles = try await lookUp()
            try await Task.sleep(for: delay)
            return profiles
        }
    }

    /// Handle lookups wait at `gate` until it opens.
    static func gated(_ base: any ProfileStore, by gate: LookupGate) -> HookedProfiles {
        HookedProfiles(base: base) { lookUp in
            await gate.pass()
            return try await lookUp()
        }
    }

    func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] {
        try await base.profiles(ids: ids, viewer: viewer)
    }
    func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile] {
        let base = self.base
        return try await around { try await base.profiles(handles: handles, viewer: viewer) }
    }
    func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool {
        try await base.isHandleTaken(handleKey, viewer: viewer)
    }
    func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage {
        try await base.searchProfiles(query, viewer: viewer)
    }
    func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile {
        try await base.updateProfile(id: id, changes: changes, viewer: viewer)
    }
    func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails {
        try await base.ownerDetails(viewer: viewer)
    }
}

/// Holds whoever passes until the test opens it: a query that keeps its execution slot for as
/// long as the test wants.
final class LookupGate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Returns at once when open, else when ``open()`` is called.
    func pass() async {
        await withCheckedContinuation { continuation in
            let through = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if through { continuation.resume() }
        }
    }

    /// Lets everyone waiting now, and everyone later, through.
    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Callers waiting at the gate now.
    var waiting: Int { state.withLock { $0.waiting.count } }
}
