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
