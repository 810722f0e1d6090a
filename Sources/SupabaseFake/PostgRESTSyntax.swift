import Foundation

/// A `/rest/v1` query string read as PostgREST reads it, and written as the SQL it stands for.
///
/// What the fake understands is what PostgREST's URL grammar says for the forms the stores send
/// (supabase-wire.md §2.2-2.5): `select=a,b` (or `*`), filters `col=[not.]op.value` with `eq`,
/// `neq`, `gt`, `gte`, `lt`, `lte`, `like`, `ilike` (`*` for `%`), `in.(a,"b,c")` and
/// `is.null|true|false`, `order=a.desc.nullslast,b`, `limit`, `offset`. Anything else
/// (embeds, aliases, casts, `or=`) is refused with PostgREST's 400 `PGRST100`, so a store that
/// starts sending it fails a test here rather than passing on a guess. Names become quoted
/// identifiers, values quoted literals (their type is the column's, as PostgREST's are), so
/// nothing of the URL is SQL.
struct PostgRESTSyntax {
    /// The output columns; nil for every column (`*`, or no `select`).
    var select: [String]?
    var filters: [String] = []
    var order: [String] = []
    var limit: Int?
    var offset: Int?

    /// Parameters that are not filters (`columns` and `on_conflict` are for writes; ignored).
    static let reserved: Set<String> = ["select", "order", "limit", "offset", "columns", "on_conflict"]

    /// Reads `query` (already split and percent-decoded) for a relation whose rows are `qualifier`.
    /// - Throws: ``PostgRESTError`` `PGRST100` for what the grammar (or the fake) does not take.
    init(_ query: [(String, String)], qualifier: String) throws {
        for (name, value) in query {
            switch name {
            case "select":
                select = value == "*" || value.isEmpty ? nil : try value.split(separator: ",", omittingEmptySubsequences: false).map {
                    try Self.identifier(String($0))
                }
            case "order":
                order = try value.split(separator: ",").map { try Self.orderTerm(String($0), qualifier: qualifier) }
            case "limit":
                guard let n = Int(value), n >= 0 else {
                    throw PostgRESTError(status: 416, code: "PGRST103", message: "Requested range not satisfiable")
                }
                limit = n
            case "offset":
                guard let n = Int(value) else { throw PostgRESTError.badQuery("\"failed to parse offset\" (\(value))") }
                offset = max(n, 0)
            case _ where Self.reserved.contains(name):
                continue
            default:
                filters.append(try Self.filter(column: name, value, qualifier: qualifier))
            }
        }
    }

    /// `select` as SQL over `qualifier`'s columns.
    func columns(of qualifier: String) throws -> String {
        guard let select else { return "\(qualifier).*" }
        return select.map { "\(qualifier).\($0)" }.joined(separator: ", ")
    }

    /// `where ...`, empty when there is no filter.
    var whereClause: String { filters.isEmpty ? "" : " where " + filters.joined(separator: " and ") }

    /// `order by ...`, empty when none.
    var orderClause: String { order.isEmpty ? "" : " order by " + order.joined(separator: ", ") }

    /// `limit ... offset ...`, the limit capped at `maxRows` (PostgREST's `db-max-rows`).
    func limitClause(maxRows: Int) -> String {
        " limit \(min(limit ?? maxRows, maxRows))" + (offset.map { " offset \($0)" } ?? "")
    }

    // MARK: Pieces

    /// A column or function name as a quoted identifier; anything but a plain name is refused.
    static func identifier(_ name: String) throws -> String {
        guard let first = name.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first),
              name.unicodeScalars.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        else { throw PostgRESTError.badQuery("\"failed to parse\" (\(name))", details: "the fake reads plain column names only") }
        return "\"\(name)\""
    }

    /// A SQL string literal: PostgreSQL gives it the type of what it is compared with, as
    /// PostgREST's unknown-typed values get.
    static func literal(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }

    static func orderTerm(_ term: String, qualifier: String) throws -> String {
        let parts = term.split(separator: ".").map(String.init)
        guard let column = parts.first else { throw PostgRESTError.badQuery("\"failed to parse order\" (\(term))") }
        var sql = "\(qualifier).\(try identifier(column))"
        for modifier in parts.dropFirst() {
            switch modifier {
            case "asc": sql += " asc"
            case "desc": sql += " desc"
            case "nullsfirst": sql += " nulls first"
            case "nullslast": sql += " nulls last"
            default: throw PostgRESTError.badQuery("\"failed to parse order\" (\(term))")
            }
        }
        return sql
    }

    static func filter(column: String, _ value: String, qualifier: String) throws -> String {
        let target = "\(qualifier).\(try identifier(column))"
        var rest = Substring(value)
        var negated = false
        if rest.hasPrefix("not.") {
            negated = true
            rest = rest.dropFirst(4)
        }
        guard let dot = rest.firstIndex(of: ".") else {
            throw PostgRESTError.badQuery("\"failed to parse filter\" (\(value))")
        }
        let op = String(rest[..<dot]), operand = String(rest[rest.index(after: dot)...])
        let sql: String
        switch op {
        case "eq": sql = "\(target) = \(literal(operand))"
        case "neq": sql = "\(target) <> \(literal(operand))"
        case "gt": sql = "\(target) > \(literal(operand))"
        case "gte": sql = "\(target) >= \(literal(operand))"
        case "lt": sql = "\(target) < \(literal(operand))"
        case "lte": sql = "\(target) <= \(literal(operand))"
        case "like": sql = "\(target) like \(literal(operand.replacingOccurrences(of: "*", with: "%")))"
        case "ilike": sql = "\(target) ilike \(literal(operand.replacingOccurrences(of: "*", with: "%")))"
        case "is":
            switch operand {
            case "null": sql = "\(target) is null"
            case "true": sql = "\(target) is true"
            case "false": sql = "\(target) is false"
            case "unknown": sql = "\(target) is unknown"
            default: throw PostgRESTError.badQuery("\"failed to parse filter\" (\(value))")
            }
        case "in":
            guard let items = inOperands(operand) else { throw PostgRESTError.badQuery("\"failed to parse filter\" (\(value))") }
            sql = items.isEmpty ? "false" : "\(target) in (\(items.map(literal).joined(separator: ", ")))"
        default:
            throw PostgRESTError.badQuery("\"failed to parse filter\" (\(value))", details: "the fake reads eq, neq, gt(e), lt(e), (i)like, in, is")
        }
        return negated ? "not (\(sql))" : sql
    }

    /// The operands of `(a,"b,c")`: commas split unless quoted, `\` escapes inside quotes.
    static func inOperands(_ list: String) -> [String]? {
        guard list.hasPrefix("("), list.hasSuffix(")") else { return nil }
        let inner = list.dropFirst().dropLast()
        if inner.isEmpty { return [] }
        var items: [String] = [], current = "", quoted = false, escaped = false
        for ch in inner {
            if escaped { current.append(ch); escaped = false }
            else if quoted && ch == "\\" { escaped = true }
            else if ch == "\"" { quoted.toggle() }
            else if ch == "," && !quoted { items.append(current); current = "" }
            else { current.append(ch) }
        }
        items.append(current)
        return items
    }

    /// `name=value` pairs, decoded as PostgREST's server does (`+` is a space).
    static func parseQuery(_ raw: String) -> [(String, String)] {
        raw.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }
}
