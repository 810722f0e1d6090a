import Foundation
import GRDB
import SocialDomain

/// Seed 000's profile search on the embedded store, read through the indexes of
/// `EmbeddedSchema+Search.swift` (issue 51) in one read transaction.
///
/// Results are in ``SearchRank`` order, then lower-case handle, then id, and each rank is read
/// its own way:
///
/// 1. **Exact and prefix** (ranks 0 and 1): the handles starting with the query are one range of
///    `profile_search_order_idx` (`[q, q || U+10FFFF)`, bytes, as ``SearchRank`` compares),
///    whose first row is the exact handle if there is one: a walk of that range, cut at the page.
/// 2. **The rest** (rank 2): profiles whose handle or name contains the query, their handle not
///    starting with it. The index names the candidates (the trigram index for 3+ characters,
///    the bigram table for 2) and is asked for at most ``maxSortedCandidates`` + 1 of them:
///    - at most ``maxSortedCandidates``: those are all the matches; they are checked, sorted and
///      cut to the page (a sort of at most 200 rows);
///    - more: the query is common, and a walk of `profile_search_order_idx` in order, skipping
///      the prefix range, meets matches often; it stops at the page. Its worst case, matches
///      that all sort last, is one walk of the index (about 20 ns a profile, no Swift call).
///
/// Every row is also checked with `instr` on the stored lower-case keys, which is exactly the
/// old `swiftLowercaseString(x) LIKE '%q%'` (both sides lowered by Swift, no wildcard left), so
/// the index only ever narrows. Blocks either way are left out in every statement (one set per
/// statement); only public profiles are in `profile_search`.
enum ProfileSearchQuery {
    /// The most candidates a search sorts itself; a query with more walks the handle order.
    static let maxSortedCandidates = 200

    /// Up to `limit` profiles of `query`'s results from its keyset on, in order (the caller asks
    /// one more than a page to know whether there is a next one).
    static func fetch(_ db: Database, _ query: SearchQuery, limit: Int, viewer: String?) throws -> [Profile] {
        let key = query.textKey
        // SQLite takes bound text up to its first NUL, so no stored handle or name holds one:
        // a query with one matches nothing (bound, it would have been cut short and matched more).
        guard !key.unicodeScalars.contains("\u{0}") else { return [] }
        var found: [Profile] = []
        // The keyset of rank 2's statements: the cursor's when it is in rank 2, else none.
        var keyset = query.after
        if query.after?.rank != .other {
            found = try fetch(db, query.after == nil ? prefixSQL : prefixAfterSQL, key, viewer, limit, query.after)
            guard found.count < limit else { return found }
            keyset = nil
        }
        var remaining = limit - found.count
        if let index = CandidateIndex(key) {
            let counted = try Int.fetchOne(
                db.cachedStatement(sql: index.countSQL), arguments: ["match": index.match, "cap": maxSortedCandidates + 1]) ?? 0
            if counted <= maxSortedCandidates {
                return found + (try fetch(db, index.sortedSQL, key, viewer, remaining, keyset, match: index.match))
            }
        }
        let below = try fetch(db, keyset == nil ? walkBelowSQL : walkBelowAfterSQL, key, viewer, remaining, keyset)
        found += below
        remaining -= below.count
        guard remaining > 0 else { return found }
        return found + (try fetch(db, keyset == nil ? walkAboveSQL : walkAboveAfterSQL, key, viewer, remaining, keyset))
    }

    /// Runs one of the statements below: every one takes `:q`, `:viewer` and `:limit`, some the
    /// keyset (`:afterHandle`, `:afterId`) and `:match` (GRDB ignores the names one does not use).
    private static func fetch(
        _ db: Database, _ sql: String, _ key: String, _ viewer: String?, _ limit: Int, _ after: SearchKeyset?,
        match: String? = nil
    ) throws -> [Profile] {
        let arguments: [String: (any DatabaseValueConvertible)?] = [
            "q": key, "viewer": viewer, "limit": limit, "afterHandle": after?.handleKey,
            "afterId": after?.profileId.lowercased, "match": match,
        ]
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
            .map { try ProfileColumns.decode($0) }
    }

    /// The index that names a query's rank-2 candidates.
    enum CandidateIndex {
        /// 3+ characters: an FTS5 phrase (the query in double quotes, its quotes doubled).
        case trigrams(phrase: String)
        /// Exactly 2 characters: the pair itself.
        case bigrams(pair: String)

        /// Nil for a query of one character, which neither index serves (never one of the
        /// gateway's: ``SearchQuery/minLength``).
        init?(_ key: String) {
            switch key.unicodeScalars.count {
            case 2: self = .bigrams(pair: key)
            case 3...: self = .trigrams(phrase: "\"" + key.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            default: return nil
            }
        }

        /// The `:match` argument of ``countSQL`` and ``sortedSQL``.
        var match: String {
            switch self {
            case .trigrams(let phrase): phrase
            case .bigrams(let pair): pair
            }
        }

        /// How many rows the index names, counted up to `:cap`.
        var countSQL: String {
            switch self {
            case .trigrams: ProfileSearchQuery.trigramCountSQL
            case .bigrams: ProfileSearchQuery.bigramCountSQL
            }
        }

        /// The rank-2 rows among those the index names, sorted and cut at `:limit`.
        var sortedSQL: String {
            switch self {
            case .trigrams: ProfileSearchQuery.trigramSortedSQL
            case .bigrams: ProfileSearchQuery.bigramSortedSQL
            }
        }
    }

    // MARK: - The statements (named parameters: :q, :viewer, :limit, :afterHandle, :afterId, :match, :cap)

    /// The profile columns of the rows an inner statement chose, in its order.
    private static func profiles(of inner: String) -> String {
        """
        SELECT \(ProfileColumns.select("p")) FROM (\(inner)) t JOIN profiles p ON p.id = t.profile_id
        ORDER BY t.handle_key, t.profile_id
        """
    }

    /// Neither blocks the other (a set made once per statement; none for an anonymous viewer).
    private static let notBlocked = """
        s.profile_id NOT IN (SELECT blocked_id FROM blocks WHERE blocker_id = :viewer
                             UNION ALL SELECT blocker_id FROM blocks WHERE blocked_id = :viewer)
        """
    /// The handle starts with the query (bytes): ranks 0 and 1.
    private static let inPrefixRange = "s.handle_key >= :q AND s.handle_key < :q || char(1114111)"
    private static let contains = "(instr(s.handle_key, :q) > 0 OR instr(s.name_key, :q) > 0)"

    /// With a keyset (ranks 0-1: its handle starts with the query, ``SearchQuery`` checks), the
    /// keyset is the range's only lower bound: given two, SQLite starts the walk at one of them,
    /// and when that was the query itself, every page walked the range from its start.
    private static func prefix(after: Bool) -> String {
        let range = after
            ? "(s.handle_key, s.profile_id) > (:afterHandle, :afterId) AND s.handle_key < :q || char(1114111)"
            : inPrefixRange
        return profiles(of: """
            SELECT s.profile_id, s.handle_key FROM profile_search s
            WHERE \(range) AND \(notBlocked)
            ORDER BY s.handle_key, s.profile_id LIMIT :limit
            """)
    }

    static let prefixSQL = prefix(after: false)
    static let prefixAfterSQL = prefix(after: true)

    static let trigramCountSQL = """
        SELECT count(*) FROM (SELECT 1 FROM profile_search_trigrams WHERE profile_search_trigrams MATCH :match LIMIT :cap)
        """
    static let bigramCountSQL = """
        SELECT count(*) FROM (SELECT 1 FROM profile_search_bigrams WHERE gram = :match LIMIT :cap)
        """

    /// Rank 2 among the candidates `candidates` names (a `key` column): CROSS JOIN keeps the
    /// candidates first, each row then found by its key.
    private static func sorted(candidates: String) -> String {
        profiles(of: """
            SELECT s.profile_id, s.handle_key FROM (\(candidates)) m CROSS JOIN profile_search s ON s.key = m.key
            WHERE NOT (\(inPrefixRange)) AND \(contains)
              AND (:afterHandle IS NULL OR (s.handle_key, s.profile_id) > (:afterHandle, :afterId))
              AND \(notBlocked)
            ORDER BY s.handle_key, s.profile_id LIMIT :limit
            """)
    }

    static let trigramSortedSQL = sorted(
        candidates: "SELECT rowid AS key FROM profile_search_trigrams WHERE profile_search_trigrams MATCH :match")
    static let bigramSortedSQL = sorted(candidates: "SELECT key FROM profile_search_bigrams WHERE gram = :match")

    /// Rank 2 by a walk of the order index below the prefix range or above it, from the keyset
    /// (a rank-2 row's, never inside the prefix range). Each walk has one lower bound, so that
    /// SQLite starts there: above the range, the larger of the keyset and the range's end (no
    /// handle equals that end, which ends in U+10FFFF).
    private static func walk(above: Bool, after: Bool) -> String {
        let range = switch (above, after) {
        case (false, false): "s.handle_key < :q"
        case (false, true): "(s.handle_key, s.profile_id) > (:afterHandle, :afterId) AND s.handle_key < :q"
        case (true, false): "s.handle_key >= :q || char(1114111)"
        case (true, true): "(s.handle_key, s.profile_id) > (max(:afterHandle, :q || char(1114111)), :afterId)"
        }
        return profiles(of: """
            SELECT s.profile_id, s.handle_key FROM profile_search s
            WHERE \(range) AND \(contains) AND \(notBlocked)
            ORDER BY s.handle_key, s.profile_id LIMIT :limit
            """)
    }

    static let walkBelowSQL = walk(above: false, after: false)
    static let walkBelowAfterSQL = walk(above: false, after: true)
    static let walkAboveSQL = walk(above: true, after: false)
    static let walkAboveAfterSQL = walk(above: true, after: true)
}
