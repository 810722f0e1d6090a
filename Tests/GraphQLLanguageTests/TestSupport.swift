import Testing
@testable import GraphQLLanguage

/// Parses `text`, expecting a syntax error; records an issue if it parses.
func syntaxError(_ text: String, options: ParseOptions = ParseOptions(), sourceLocation: Testing.SourceLocation = #_sourceLocation) -> GraphQLSyntaxError? {
    do {
        _ = try Document(parsing: text, options: options)
        Issue.record("expected a syntax error for \(text.prefix(80))", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Asserts that `text` fails with exactly `message` at `line`:`column`.
func expectSyntaxError(
    _ text: String, _ message: String, _ line: Int, _ column: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    guard let error = syntaxError(text, sourceLocation: sourceLocation) else { return }
    #expect(error.message == message, sourceLocation: sourceLocation)
    #expect(error.location == GraphQLLanguage.SourceLocation(line: line, column: column), sourceLocation: sourceLocation)
}

/// Parses one value literal from `{ f(a: <text>) }`.
func parseArgumentValue(_ text: String) throws -> Value {
    let document = try Document(parsing: "{ f(a: \(text)) }", options: ParseOptions(noLocation: true))
    guard case .operation(let op) = document.definitions[0], case .field(let field) = op.selectionSet.selections[0]
    else { throw TestFailure("no field") }
    return field.arguments[0].value
}

/// The cooked value of a string literal.
func stringValue(_ literal: String) throws -> String {
    guard case .string(let s) = try parseArgumentValue(literal) else { throw TestFailure("not a string") }
    return s.value
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads a fixture next to this file.
func fixture(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    return try String(contentsOf: url, encoding: .utf8)
}

import Foundation
