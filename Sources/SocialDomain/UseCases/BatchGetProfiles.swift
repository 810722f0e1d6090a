import Foundation

/// Many profiles by ids or handles in one store call: order preserved, duplicates allowed,
/// missing or hidden ones as nil.
///
/// Two entry points share every rule: ``execute(ids:viewer:)`` for a caller holding one list
/// (the `profiles(ids:)` query), and ``load(ids:viewer:)`` for the gateway's loaders, which
/// gather the keys of a whole query level, check each argument list with ``checkBatchSize(_:field:)``
/// first, and ask once.
///
/// ```swift
/// let list = try await BatchGetProfiles(profiles: store).execute(ids: [a, b, a], viewer: viewer)
/// let byKey = try await BatchGetProfiles(profiles: store).load(handles: ["alice_wonder"], viewer: viewer)
/// ```
public struct BatchGetProfiles: Sendable {
    /// The most keys one argument list may name (`ids`, `handles`).
    public static let maxBatchSize = 100

    public let profiles: any ProfileStore

    public init(profiles: any ProfileStore) {
        self.profiles = profiles
    }

    /// The visible profiles among `ids` from a source that answers at once
    /// (``ReadyGraphReads``), or nil when it cannot.
    public static func ready(ids: [UUID], viewer: Viewer, from source: any ReadyGraphReads) -> [UUID: Profile]? {
        source.readyProfiles(ids: ids, viewer: viewer)
    }

    /// The visible profiles with these handle keys (``handleKey(_:)``) from a source that answers
    /// at once, or nil when it cannot.
    public static func ready(handleKeys: [String], viewer: Viewer, from source: any ReadyGraphReads) -> [String: Profile]? {
        source.readyProfiles(handleKeys: handleKeys, viewer: viewer)
    }

    /// - Throws: `BAD_USER_INPUT` (field `ids`) over ``maxBatchSize``; `BACKEND_UNAVAILABLE`.
    public func execute(ids: [UUID], viewer: Viewer) async throws -> [Profile?] {
        try Self.checkBatchSize(ids.count, field: "ids")
        let found = try await load(ids: ids, viewer: viewer)
        return ids.map { found[$0] }
    }

    /// - Throws: `BAD_USER_INPUT` (field `handles`) over ``maxBatchSize``; `BACKEND_UNAVAILABLE`.
    public func execute(handles: [String], viewer: Viewer) async throws -> [Profile?] {
        try Self.checkBatchSize(handles.count, field: "handles")
        let keys = handles.map(Self.handleKey)
        let found = try await load(handles: keys.compactMap { $0 }, viewer: viewer)
        return keys.map { $0.flatMap { found[$0] } }
    }

    /// The visible profiles among `ids`, in one store call, with no size rule (a loader's batch:
    /// the stores split further where their backend needs it).
    /// - Throws: `BACKEND_UNAVAILABLE`.
    public func load(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] {
        var seen = Set<UUID>()
        let unique = ids.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [:] }
        return try await backend { try await profiles.profiles(ids: unique, viewer: viewer) }
    }

    /// The visible profiles among `handles`, keyed as given; each handle must already be a
    /// ``handleKey(_:)``, and ones that are not find nothing.
    /// - Throws: `BACKEND_UNAVAILABLE`.
    public func load(handles: [String], viewer: Viewer) async throws -> [String: Profile] {
        var seen = Set<String>()
        let valid = handles.filter { HandleRule.isValid($0) && $0 == $0.lowercased() && seen.insert($0).inserted }
        guard !valid.isEmpty else { return [:] }
        return try await backend { try await profiles.profiles(handles: valid, viewer: viewer) }
    }

    /// How a handle from a client is looked up: trimmed, lower-cased (handles are unique
    /// case-insensitively); nil when it breaks the handle rule, so it names no profile.
    public static func handleKey(_ handle: String) -> String? {
        // A valid handle has nothing to trim: the common case skips Foundation's trimming (about
        // 2% of a random viewer's card, profiled).
        if HandleRule.isValid(handle) { return handle.lowercased() }
        let trimmed = handle.trimmingCharacters(in: .whitespacesAndNewlines)
        return HandleRule.isValid(trimmed) ? trimmed.lowercased() : nil
    }

    /// The argument rule of both lists.
    /// - Throws: `BAD_USER_INPUT` naming `field` when `count` is over ``maxBatchSize``.
    public static func checkBatchSize(_ count: Int, field: String) throws {
        guard count <= maxBatchSize else {
            throw DomainError.badUserInput("At most \(maxBatchSize) \(field) can be requested at once", field: field)
        }
    }
}
