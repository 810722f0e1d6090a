import ArgumentParser
import Foundation
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation

/// `social-gateway graphql execute --schema S --data ROOT.json [--variables V.json] [--operation NAME]
/// [--incremental v0.1|v0.2] FILE`
///
/// Validates, then executes against fixture data with default resolvers: each
/// field reads its name from the parent JSON object; interfaces and unions pick
/// their type from a `__typename` key; custom scalars pass values through. A
/// mock server for client developers, and a way to try the engine.
///
/// With `--incremental`, `@defer` and `@stream` are executed incrementally and each payload is
/// printed on its own line, the initial one first, in order: the same lines graphql-js 17's
/// `experimentalExecuteIncrementally` (v0.2) or its legacy format (v0.1) gives for the document,
/// so answers can be compared offline (`scripts/incremental-compare`). A schema that does not
/// declare `@defer` and `@stream` gets graphql-js's definitions of them.
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

    @Option(
        help: ArgumentHelp(
            "Execute @defer and @stream incrementally and print each payload as one JSON line.",
            discussion: "v0.1: Apollo's deferSpec=20220824; v0.2: graphql-js 17's incrementalSpec=v0.2.",
            valueName: "format"))
    var incremental: IncrementalFormat?

    @ArgumentParser.Argument(help: "The executable document ('-' reads standard input).")
    var file: String

    func run() async throws {
        let schema = try loadSchema(self.schema, declaringIncrementalDirectives: incremental != nil)
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
        let request = GraphQLRequest(
            document: document, source: source, operationName: operation, variables: variableValues, rootValue: root)
        guard let incremental else {
            let result = await Executor.execute(schema: schema, request: request)
            Swift.print(result.jsonString)
            if !result.errors.isEmpty { throw ExitCode(1) }
            return
        }
        switch await IncrementalExecution.start(schema: schema, request: request, format: incremental) {
        case .complete(let result):
            Swift.print(result.jsonString)
            if !result.errors.isEmpty { throw ExitCode(1) }
        case .incremental(let execution):
            Swift.print(String(decoding: execution.initialPayload, as: UTF8.self))
            var hasErrors = execution.initialHasErrors
            try await execution.run { payload in
                Swift.print(String(decoding: payload.body, as: UTF8.self))
                hasErrors = hasErrors || payload.hasErrors
            }
            if hasErrors { throw ExitCode(1) }
        }
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

extension IncrementalFormat: ExpressibleByArgument {}
