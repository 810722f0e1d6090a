import Foundation

/// Finds public profiles by handle or display name (seeds 000/001/003), keyset-paginated.
///
/// The query is trimmed and needs 2+ characters; `%` and `_` match literally; page size
/// ``PageSize/search``.
///
/// ```swift
/// let page = try await SearchProfiles(profiles: store).execute(query: "ali", first: 10, after: nil, viewer: viewer)
/// ```
public struct SearchProfiles: Sendable {
    public let profiles: any ProfileStore

    public init(profiles: any ProfileStore) { self.profiles = profiles }

    /// Signed-in viewers only (seed 001: "You must be logged in to search profiles"; seed 000: search
    /// "requires auth to prevent abuse, but returns only public profiles"), checked after the
    /// arguments, as the seed's use case validates before its service refuses.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` (`query`, `first`, `after`), `UNAUTHENTICATED`,
    ///   `BACKEND_UNAVAILABLE`.
    public func execute(query: String, first: Int?, after: String?, viewer: Viewer) async throws -> SearchPage {
        let search = try Self.validate(query: query, first: first, after: after)
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .searchProfiles) }
        return try await backend { try await profiles.searchProfiles(search, viewer: viewer) }
    }

    /// The argument rules, without touching a store.
    public static func validate(query: String, first: Int?, after: String?) throws -> SearchQuery {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count >= SearchQuery.minLength else {
            throw DomainError.badUserInput(
                "Search query must be at least \(SearchQuery.minLength) characters", field: "query")
        }
        guard text.count <= SearchQuery.maxLength else {
            throw DomainError.badUserInput(
                "Search query must be at most \(SearchQuery.maxLength) characters", field: "query")
        }
        let limit = try PageSize.search.checked(first, field: "first")
        var search = SearchQuery(text: text, limit: limit)
        if let after {
            // A cursor from before ranking (no rank) does not decode; one whose rank is not its
            // handle's rank for this query came from another search. Both are refused.
            guard case .search(let key)? = PageCursor.decode(after), key.rank == search.rank(of: key.handleKey) else {
                throw DomainError.invalidCursor(field: "after")
            }
            search.after = key
        }
        return search
    }
}
