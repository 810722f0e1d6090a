import Foundation
import PostgresNIO

/// Requests on `/rest/v1/<table>` written as the SQL PostgREST runs for them (supabase-wire.md
/// §2.2-2.6): a read is a `select` of the chosen columns with the filters, order and limit
/// (at most `db-max-rows`); an insert takes the body's keys as its columns
/// (`json_populate_recordset`, so a JSON array is a text array, `null` a NULL); an update sets
/// the body's keys on the filtered rows; a delete removes them. Writes return the rows
/// (`Prefer: return=representation`, `select=` choosing the columns) or nothing. Row-level
/// security, column privileges, checks, triggers and keys are the database's: the fake adds no
/// rule of its own.
enum PostgRESTTables {
    /// A statement, its parameters, and whether it runs in a read-only transaction (a GET's).
    struct Statement {
        var sql: String
        var binds = PostgresBindings()
        var readOnly: Bool
    }

    /// The table's quoted name, `public."<table>"`.
    static func table(_ path: String) throws -> String {
        let name = String(path.dropFirst("/rest/v1/".count))
        guard !name.isEmpty, !name.contains("/") else {
            throw PostgRESTError(status: 404, code: "PGRST125", message: "Invalid path specified in request URL")
        }
        return "public.\(try PostgRESTSyntax.identifier(name))"
    }

    static func read(_ path: String, _ query: PostgRESTSyntax, maxRows: Int) throws -> Statement {
        Statement(
            sql: "select coalesce(json_agg(_r), '[]')::text from (select \(try query.columns(of: "_t")) from \(try table(path)) as _t"
                + query.whereClause + query.orderClause + query.limitClause(maxRows: maxRows) + ") _r",
            readOnly: true)
    }

    /// `POST`: one object or an array of objects with the same keys (the first one's).
    static func insert(_ path: String, body: Data, _ query: PostgRESTSyntax, representation: Bool) throws -> Statement {
        let rows: [[String: Any]]
        switch try? JSONSerialization.jsonObject(with: body) {
        case let object as [String: Any]: rows = [object]
        case let array as [[String: Any]]: rows = array
        default: throw PostgRESTError.badBody("Empty or invalid json")
        }
        let keys = try (rows.first?.keys.sorted() ?? []).map(PostgRESTSyntax.identifier)
        let table = try table(path)
        let array = String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self)
        var binds = PostgresBindings()
        binds.append(array)
        let columns = keys.joined(separator: ", ")
        let returning = representation ? try query.columns(of: "_t") : "1 as _x"
        let insert = keys.isEmpty
            ? "insert into \(table) as _t default values returning \(returning)"
            : "insert into \(table) as _t (\(columns)) select \(columns) from json_populate_recordset(null::\(table), $1::json) returning \(returning)"
        return Statement(sql: "with _w as (\(insert)) select coalesce(json_agg(_w), '[]')::text from _w", binds: keys.isEmpty ? PostgresBindings() : binds, readOnly: false)
    }

    /// `PATCH`: the body's keys set on the rows the filters select.
    static func update(_ path: String, body: Data, _ query: PostgRESTSyntax, representation: Bool) throws -> Statement {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw PostgRESTError.badBody("Empty or invalid json")
        }
        let table = try table(path)
        let keys = try object.keys.sorted().map(PostgRESTSyntax.identifier)
        guard !keys.isEmpty else {
            // PostgREST: an empty body updates nothing.
            return Statement(sql: "select '[]'::text", readOnly: false)
        }
        var binds = PostgresBindings()
        binds.append(String(decoding: body, as: UTF8.self))
        let returning = representation ? try query.columns(of: "_t") : "1 as _x"
        let update = "update \(table) as _t set " + keys.map { "\($0) = _b.\($0)" }.joined(separator: ", ")
            + " from json_populate_record(null::\(table), $1::json) as _b" + query.whereClause + " returning \(returning)"
        return Statement(sql: "with _w as (\(update)) select coalesce(json_agg(_w), '[]')::text from _w", binds: binds, readOnly: false)
    }

    /// `DELETE`: the rows the filters select.
    static func delete(_ path: String, _ query: PostgRESTSyntax, representation: Bool) throws -> Statement {
        let returning = representation ? try query.columns(of: "_t") : "1 as _x"
        let delete = "delete from \(try table(path)) as _t" + query.whereClause + " returning \(returning)"
        return Statement(sql: "with _w as (\(delete)) select coalesce(json_agg(_w), '[]')::text from _w", readOnly: false)
    }
}
