import Foundation
import PostgresNIO
import Synchronization

/// The functions of the `public` schema as PostgREST's schema cache knows them, and a call
/// to one written as the SQL PostgREST runs (`/rest/v1/rpc/<name>`, supabase-wire.md §2.7).
///
/// A call's body is a JSON object of named arguments: PostgREST picks the function whose
/// arguments the keys name (every argument without a default given, no unknown key; 404
/// `PGRST202` otherwise), reads the arguments with `json_to_record` typed as the function
/// declares them (a JSON array becomes a `uuid[]`, an object a `jsonb`...), and answers a
/// scalar result bare (`true`, a `jsonb` document), a set of rows as an array of objects
/// (`select=` choosing their columns), a set of scalars as an array of values, at most
/// `db-max-rows` of either. STABLE and IMMUTABLE functions run in a read-only transaction.
final class PostgRESTFunctions: Sendable {
    struct Function: Sendable, Decodable {
        struct Argument: Sendable, Decodable {
            var name: String
            var type: String
        }

        var arguments: [Argument]
        /// How many of the last arguments have defaults.
        var defaults: Int
        var returnsSet: Bool
        /// Rows (a table's row type, or `RETURNS TABLE`) rather than a scalar.
        var returnsRows: Bool
        var readOnly: Bool
    }

    private let cache = Mutex<[String: [Function]]>([:])

    /// The overloads named `name`, from the database once (the schema does not change while a
    /// fake runs).
    func overloads(_ name: String, in database: FakeDatabase) async throws -> [Function] {
        if let known = cache.withLock({ $0[name] }) { return known }
        var binds = PostgresBindings()
        binds.append(name)
        let text = try await database.adminText("""
            select coalesce(json_agg(json_build_object(
                     'arguments', coalesce((
                        select json_agg(json_build_object('name', a.name, 'type', format_type(a.type, null)) order by a.n)
                        from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargnames,
                                    coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs])))
                             with ordinality as a(type, name, mode, n)
                        where a.mode in ('i', 'b', 'v')), '[]'),
                     'defaults', p.pronargdefaults,
                     'returnsSet', p.proretset,
                     'returnsRows', t.typtype = 'c' or p.prorettype = 'record'::regtype,
                     'readOnly', p.provolatile <> 'v')), '[]')::text
            from pg_proc p join pg_type t on t.oid = p.prorettype
            where p.pronamespace = 'public'::regnamespace and p.proname = $1
            """, binds: binds) ?? "[]"
        let found = try JSONDecoder().decode([Function].self, from: Data(text.utf8))
        cache.withLock { $0[name] = found }
        return found
    }

    /// The statement of a call of `name` with `body`'s arguments, and whether it runs read-only.
    /// - Throws: ``PostgRESTError`` for a body that is not an object, or no matching function.
    func call(
        _ name: String, body: Data, select: PostgRESTSyntax, maxRows: Int, in database: FakeDatabase
    ) async throws -> (sql: String, binds: PostgresBindings, readOnly: Bool, rows: Bool) {
        let functionName = try PostgRESTSyntax.identifier(name)
        let object: [String: Any]
        if body.isEmpty {
            object = [:]
        } else {
            guard let parsed = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) as? [String: Any] else {
                throw PostgRESTError.badBody("Empty or invalid json")
            }
            object = parsed
        }
        let given = Set(object.keys)
        let matching = try await overloads(name, in: database).filter { function in
            let names = function.arguments.map(\.name)
            let required = Set(names.dropLast(function.defaults))
            return given.isSubset(of: Set(names)) && required.isSubset(of: given)
        }
        guard matching.count == 1, let function = matching.first else {
            if matching.count > 1 {
                throw PostgRESTError(status: 300, code: "PGRST203", message: "Could not choose the best candidate function between overloads of public.\(name)")
            }
            throw PostgRESTError.noFunction(name, Array(given))
        }
        // Only the arguments given, by name: the others take their defaults.
        let used = try function.arguments.filter { given.contains($0.name) }.map { ($0, try PostgRESTSyntax.identifier($0.name)) }
        let call = "public.\(functionName)(" + used.map { "\($1) := _a.\($1)" }.joined(separator: ", ") + ")"
        let source = used.isEmpty
            ? ""
            : " from json_to_record($1::json) as _a(" + used.map { "\($1) \($0.type)" }.joined(separator: ", ") + ")"
        var binds = PostgresBindings()
        if !used.isEmpty { binds.append(String(decoding: body, as: UTF8.self)) }
        let sql: String
        switch (function.returnsSet, function.returnsRows) {
        case (false, false):
            sql = "select to_json(\(call))::text" + source
        case (false, true):
            sql = "select to_json(_r)::text from (select \(try select.columns(of: "_f"))\(source.isEmpty ? " from" : source + " cross join lateral") \(call) as _f) _r"
        case (true, true):
            sql = "select coalesce(json_agg(_r), '[]')::text from (select \(try select.columns(of: "_f"))"
                + (source.isEmpty ? " from" : source + " cross join lateral") + " \(call) as _f limit \(maxRows)) _r"
        case (true, false):
            sql = "select coalesce(json_agg(_r._f), '[]')::text from (select _f"
                + (source.isEmpty ? " from" : source + " cross join lateral") + " \(call) as _f limit \(maxRows)) _r"
        }
        return (sql, binds, function.readOnly, function.returnsSet)
    }
}
