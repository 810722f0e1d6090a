import ArgumentParser
import Foundation
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation

/// `social-gateway graphql execute --schema S --data ROOT.json [--variables V.json] [--operation NAME] FILE`
///
/// Validates, then executes against fixture data with default resolvers: each
/// field reads its name from the parent JSON object; interfaces and unions pick
/// their type from a `__typename` key; custom scalars pass values through. A
/// mock server for client developers, and a way to try the engine.
struct ExecuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "execute",
        abstract: "Execute a document against JSON fixture data and print the GraphQL response.",
        discussion: """
            Exit 0 when the response has no errors, 1 when it has any (request or field errors), \
            2 when the schema does not load or an input file is unreadable or not JSON.
            """
    )

    @Option(help: "The schema, as SDL.")
    var schema: String

    @Option(help: "The root value: a JSON object whose members are the root fields' values.")
    var data: String

    @Option(help: "A JSON object of variable values.")
    var variables: String?

    @Option(help: "The operation to run, when the document has several.")
    var operation: String?

    @ArgumentParser.Argument(help: "The executable document ('-' reads standard input).")
    var file: String

    func run() async throws {
        let schema = try loadSchema(self.schema)
        let root = try readJSON(data, what: "--data")
        var variableValues = JSONObject()
        if let variables {
            guard case .object(let object) = try readJSON(variables, what: "--variables") else {
                FileHandle.standardError.write(Data("error: --variables must be a JSON object\n".utf8))
                throw ExitCode(2)
            }
            variableValues = object
        }
        let (document, source) = try loadDocument(file)
        let errors = Validator.validate(schema: schema, document: document, source: source)
        if !errors.isEmpty {
            Swift.print(ErrorJSON.response(errors))
            throw ExitCode(1)
        }
        let result = await Executor.execute(
            schema: schema,
            request: GraphQLRequest(
                document: document, source: source, operationName: operation, variables: variableValues, rootValue: root))
        Swift.print(result.jsonString)
        if !result.errors.isEmpty { throw ExitCode(1) }
    }

    func readJSON(_ path: String, what: String) throws -> JSONValue {
        let bytes = try readInput(path)
        do {
            return try JSONParser.parse(bytes)
        } catch {
            FileHandle.standardError.write(Data("error: \(what) \(path) is not valid JSON: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
