import Foundation

/// Many profiles by ids or handles in one store call: order preserved, duplicates allowed,
/// missing or hidden ones as nil.
///
/// ```swift
/// let list = try await BatchGetProfiles(profiles: store).execute(ids: [a, b, a], viewer: viewer)
/// ```
public struct BatchGetProfiles: Sendable {
    public let profiles: any ProfileStore
    /// The most keys one call accepts.
    public let maxBatchSize: Int

    public init(profiles: any ProfileStore, maxBatchSize: Int = 100) {
        self.profiles = profiles
        self.maxBatchSize = maxBatchSize
    }

    /// - Throws: `BAD_USER_INPUT` (field `ids`) over ``maxBatchSize``; `BACKEND_UNAVAILABLE`.
    public func execute(ids: [UUID], viewer: Viewer) async throws -> [Profile?] {
        try checkSize(ids.count, field: "ids")
        guard !ids.isEmpty else { return [] }
        var seen = Set<UUID>()
        let unique = ids.filter { seen.insert($0).inserted }
        let found = try await backend { try await profiles.profiles(ids: unique, viewer: viewer) }
        return ids.map { found[$0] }
    }

    /// - Throws: `BAD_USER_INPUT` (field `handles`) over ``maxBatchSize``; `BACKEND_UNAVAILABLE`.
    public func execute(handles: [String], viewer: Viewer) async throws -> [Profile?] {
        try checkSize(handles.count, field: "handles")
        let keys = handles.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        var seen = Set<String>()
        let valid = keys.filter { HandleRule.isValid($0) && seen.insert($0.lowercased()).inserted }
        guard !valid.isEmpty else { return keys.map { _ in nil } }
        let found = try await backend { try await profiles.profiles(handles: valid, viewer: viewer) }
        return keys.map { found[$0.lowercased()] }
    }

    private func checkSize(_ count: Int, field: String) throws {
        guard count <= maxBatchSize else {
            throw DomainError.badUserInput("At most \(maxBatchSize) \(field) can be requested at once", field: field)
        }
    }
}
