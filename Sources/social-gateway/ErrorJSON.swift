import GraphQLEngine
import GraphQLLanguage

/// The `{"errors":[...]}` document the command line tools print: messages and locations only,
/// written by the engine's JSON writer.
enum ErrorJSON {
    /// One error at one location (a syntax error).
    static func response(message: String, line: Int, column: Int) -> String {
        JSONWriter.string([
            "errors": [["message": .string(message), "locations": [["line": .int(line), "column": .int(column)]]]]
        ])
    }

    /// Errors in the order they were reported.
    static func response(_ errors: [GraphQLError]) -> String {
        let items = errors.map { error -> JSONValue in
            var object: JSONObject = ["message": .string(error.message)]
            if !error.locations.isEmpty {
                object["locations"] = .array(error.locations.map { ["line": .int($0.line), "column": .int($0.column)] })
            }
            return .object(object)
        }
        return JSONWriter.string(["errors": .array(items)])
    }
}
