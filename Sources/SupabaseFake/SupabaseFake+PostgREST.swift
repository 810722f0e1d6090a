import Foundation
import Hummingbird
import PostgresNIO

/// The fake's `/rest/v1`: PostgREST's wire over the fake's database. Each request is written as
/// the SQL PostgREST runs (``PostgRESTTables``, ``PostgRESTFunctions``) and run in one
/// transaction as the caller (``FakeDatabase/run(_:binds:as:readOnly:)``); the answer is the
/// statement's JSON with PostgREST's status and headers, or PostgreSQL's error as PostgREST
/// passes it on (``PostgRESTError``). No rule of the schema is written here: the policies,
/// functions and triggers of `supabase/migrations` decide.
extension SupabaseFake {
    func rest(_ request: RecordedRequest, caller: Caller) async -> Response {
        do {
            return try await restAnswer(request, caller: caller)
        } catch let error as PostgRESTError {
            return error.response
        } catch {
            if let failure = PostgRESTError(error, authenticated: caller.isAuthenticated) { return failure.response }
            return PostgRESTError.unavailable("\(error)").response
        }
    }

    private func restAnswer(_ request: RecordedRequest, caller: Caller) async throws -> Response {
        let query = PostgRESTSyntax.parseQuery(request.query)
        let representation = request.headers["prefer"]?.contains("return=representation") == true
        if request.path.hasPrefix("/rest/v1/rpc/") {
            guard request.method == "POST" else {
                throw PostgRESTError(status: 405, code: "PGRST101", message: "the fake calls functions by POST only")
            }
            let name = String(request.path.dropFirst("/rest/v1/rpc/".count))
            if let other = query.first(where: { $0.0 != "select" }) {
                throw PostgRESTError.badQuery("\"failed to parse\" (\(other.0))", details: "the fake applies no filter to a function's rows")
            }
            let call = try await PostgRESTFunctions.shared.call(
                name, body: request.body, select: try PostgRESTSyntax(query, qualifier: "_f"),
                maxRows: Self.maxRows, in: database)
            let answer = try await database.run(call.sql, binds: call.binds, as: caller, readOnly: call.readOnly) ?? "null"
            return call.rows ? Self.rowsAnswer(200, answer) : Self.response(200, answer)
        }
        let syntax = try PostgRESTSyntax(query, qualifier: "_t")
        let statement: PostgRESTTables.Statement
        let status: Int
        switch request.method {
        case "GET":
            statement = try PostgRESTTables.read(request.path, syntax, maxRows: Self.maxRows)
            status = 200
        case "POST":
            statement = try PostgRESTTables.insert(request.path, body: request.body, syntax, representation: representation)
            status = 201
        case "PATCH":
            statement = try PostgRESTTables.update(request.path, body: request.body, syntax, representation: representation)
            status = representation ? 200 : 204
        case "DELETE":
            statement = try PostgRESTTables.delete(request.path, syntax, representation: representation)
            status = representation ? 200 : 204
        default:
            throw PostgRESTError(status: 405, code: "PGRST117", message: "Unsupported HTTP method: \(request.method)")
        }
        let answer = try await database.run(statement.sql, binds: statement.binds, as: caller, readOnly: statement.readOnly) ?? "[]"
        if request.method != "GET" && !representation {
            return Response(status: .init(code: status))
        }
        return Self.rowsAnswer(status, answer)
    }

    /// Rows as PostgREST answers them: the JSON array, and `Content-Range` saying which (no total:
    /// none was asked for).
    static func rowsAnswer(_ status: Int, _ json: String) -> Response {
        var response = Self.response(status, json)
        let count = (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])?.count ?? 0
        response.headers[.contentRange] = count == 0 ? "*/*" : "0-\(count - 1)/*"
        return response
    }
}

extension PostgRESTFunctions {
    /// One catalog for every fake: their databases are clones of one template.
    static let shared = PostgRESTFunctions()
}
