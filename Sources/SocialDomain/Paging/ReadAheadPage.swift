/// A request for a page of at most ``limit`` rows, read ahead by one row.
///
/// Every store reads a page the same way: it asks for ``rowsToFetch`` (`limit + 1`) rows, keeps
/// the first `limit` and knows from the extra row whether another page follows, without a count
/// query (``trim(_:)``). One recipe, so `hasNextPage` means the same on every store (issue 55).
///
/// ```swift
/// arguments += [request.rowsToFetch]
/// let (rows, more) = request.trim(try Row.fetchAll(db, sql: sql, arguments: arguments))
/// ```
public protocol ReadAheadPage {
    /// The most rows the page shows.
    var limit: Int { get }
}

extension ReadAheadPage {
    /// The rows to ask the store for: one more than the page shows.
    public var rowsToFetch: Int { limit + 1 }

    /// The page's rows (the first ``limit`` fetched) and whether more followed them.
    public func trim<Rows: Collection>(_ fetched: Rows) -> (rows: [Rows.Element], hasMore: Bool) {
        (Array(fetched.prefix(limit)), fetched.count > limit)
    }
}

extension PageRequest: ReadAheadPage {}
extension TimePageRequest: ReadAheadPage {}
extension FollowSyncRequest: ReadAheadPage {}
extension SearchQuery: ReadAheadPage {}
