import ArgumentParser
import Foundation
import GraphQLLanguage

/// `social-gateway graphql parse FILE [--print]`
///
/// Exit 0 for a syntactically valid document; exit 1 with a GraphQL error
/// response on stdout for an invalid one, so client teams can run it in CI.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Check that a file is a syntactically valid GraphQL document.",
        discussion: """
            Accepts any mix of executable definitions (operations, fragments) and type-system \
            definitions (SDL). On a syntax error prints {"errors":[{"message":...,"locations":[...]}]} \
            to stdout and exits 1. Columns count Unicode characters (scalar values), 1-based.
            """
    )

    @ArgumentParser.Argument(help: "The .graphql file to check ('-' reads standard input).")
    var file: String

    @Flag(name: .customLong("print"), help: "Print the document in canonical form when it is valid.")
    var printDocument = false

    @Option(help: "Refuse documents with more tokens than this.")
    var maxTokens = ParseOptions().maxTokens

    @Option(help: "Refuse documents nested deeper than this.")
    var maxDepth = ParseOptions().maxDepth

    func run() throws {
        let bytes = try readInput(file)
        do {
            let source = try Source(bytes: bytes, name: file)
            let options = ParseOptions(maxTokens: maxTokens, maxDepth: maxDepth)
            let document = try Document(parsing: source, options: options)
            if printDocument { Swift.print(document.printed) }
        } catch let error as GraphQLSyntaxError {
            Swift.print(ErrorJSON.response(message: error.message, line: error.location.line, column: error.location.column))
            throw ExitCode(1)
        }
    }
}
