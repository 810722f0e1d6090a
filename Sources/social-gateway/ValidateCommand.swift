import ArgumentParser
import Foundation
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation

/// `social-gateway graphql validate --schema SCHEMA.graphql FILE`
///
/// Exit 0 when FILE is valid against the schema; 1 with one error per violation
/// (in the order the rules report them); 2 when the schema itself fails to load.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check that a document is valid against a schema (all rules of §5 of the GraphQL spec).",
        discussion: """
            Prints {"errors":[{"message":...,"locations":[{"line":L,"column":C}]}]} to stdout and exits 1 \
            when the document is invalid; exits 2, with the schema's errors, when the schema does not load.
            """
    )

    @Option(help: "The schema, as SDL.")
    var schema: String

    @ArgumentParser.Argument(help: "The executable document to check ('-' reads standard input).")
    var file: String

    func run() throws {
        let schema = try loadSchema(self.schema)
        let (document, source) = try loadDocument(file)
        let errors = Validator.validate(schema: schema, document: document, source: source)
        if !errors.isEmpty {
            Swift.print(ErrorJSON.response(errors))
            throw ExitCode(1)
        }
    }
}

/// Loads and builds a schema file; a schema that does not load exits 2 with its errors.
func loadSchema(_ path: String) throws -> GraphQLSchema {
    let bytes = try readInput(path)
    do {
        let source = try Source(bytes: bytes, name: path)
        return try SchemaBuilder.build(sdl: source.body, name: path)
    } catch let error as SchemaError {
        Swift.print(ErrorJSON.response(error.errors))
        throw ExitCode(2)
    } catch let error as GraphQLSyntaxError {
        Swift.print(ErrorJSON.response(message: error.message, line: error.location.line, column: error.location.column))
        throw ExitCode(2)
    }
}

/// Reads and parses an executable document; a syntax error exits 1 with its error.
func loadDocument(_ path: String) throws -> (Document, Source) {
    let bytes = try readInput(path)
    do {
        let source = try Source(bytes: bytes, name: path)
        return (try Document(parsing: source), source)
    } catch let error as GraphQLSyntaxError {
        Swift.print(ErrorJSON.response(message: error.message, line: error.location.line, column: error.location.column))
        throw ExitCode(1)
    }
}

extension ErrorJSON {
    /// `{"errors":[{"message":...,"locations":[...]}]}`: message and locations only.
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
