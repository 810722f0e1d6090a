/// A validated profile search: trimmed text (2+ characters), page size ``PageSize/search``, optional keyset.
///
/// Results are public profiles whose handle or display name contains ``text`` case-insensitively,
/// ordered by ``SearchRank`` (exact handle, then handles starting with the text, then the rest),
/// then lower-cased handle, then id.
public struct SearchQuery: Sendable, Hashable {
    public var text: String
    public var limit: Int
    public var after: SearchKeyset?

    public init(text: String, limit: Int = PageSize.search.defaultSize, after: SearchKeyset? = nil) {
        self.text = text
        self.limit = limit
        self.after = after
    }

    /// ``text`` in lower case, which the stores compare with the lower-case handle to rank it.
    public var textKey: String { text.lowercased() }

    /// The rank of `handle` for this search.
    public func rank(of handle: String) -> SearchRank {
        SearchRank(handleKey: handle.lowercased(), queryKey: textKey)
    }

    public static let minLength = 2
    public static let maxLength = 100

    /// A `LIKE`/`ILIKE` pattern matching ``text`` anywhere, with `\`, `%` and `_` escaped by a
    /// backslash so they match literally (`... LIKE :pattern ESCAPE '\'`).
    public var containsPattern: String {
        var escaped = ""
        for character in text.lowercased() {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%" + escaped + "%"
    }
}

/// A search hit with its cursor.
public struct SearchEdge: Sendable, Hashable {
    public var profile: Profile
    public var cursor: String
    public init(profile: Profile, query: SearchQuery) {
        self.profile = profile
        self.cursor = PageCursor.search(
            SearchKeyset(rank: query.rank(of: profile.handle), handleKey: profile.handle.lowercased(), profileId: profile.id)).encoded
    }
}

/// A page of search results.
public struct SearchPage: Sendable, Hashable {
    public var edges: [SearchEdge]
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public init(edges: [SearchEdge], hasNextPage: Bool, hasPreviousPage: Bool) {
        self.edges = edges
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
    }
    public var startCursor: String? { edges.first?.cursor }
    public var endCursor: String? { edges.last?.cursor }

    /// The page from the profiles a store read for `query` (``ReadAheadPage/rowsToFetch`` of
    /// them, in rank order), the recipe every store shares.
    public static func assemble(query: SearchQuery, fetched: [Profile]) -> SearchPage {
        let (profiles, more) = query.trim(fetched)
        return SearchPage(
            edges: profiles.map { SearchEdge(profile: $0, query: query) }, hasNextPage: more, hasPreviousPage: query.after != nil)
    }
}
