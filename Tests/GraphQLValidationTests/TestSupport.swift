import GraphQLEngine
import GraphQLLanguage
import Testing

@testable import GraphQLValidation

/// The §5 example schema, built once.
let specSchema: GraphQLSchema = {
    do { return try SchemaBuilder.build(sdl: specExampleSDL) } catch { fatalError("spec schema: \(error)") }
}()

/// One expected error: its message and its (line, column) locations.
struct ExpectedError: Equatable, CustomStringConvertible {
    var message: String
    var locations: [GraphQLLanguage.SourceLocation]

    var description: String { "\(message) @ \(locations.map(\.description).joined(separator: ", "))" }
}

/// `error("message", (1, 3), (2, 5))`.
func error(_ message: String, _ locations: (Int, Int)...) -> ExpectedError {
    ExpectedError(message: message, locations: locations.map { GraphQLLanguage.SourceLocation(line: $0.0, column: $0.1) })
}

/// Validates `query` against `schema` and returns its errors as message + locations.
func validate(
    _ query: String, schema: GraphQLSchema = specSchema, options: ValidationOptions = .init()
) -> [ExpectedError] {
    validateRaw(query, schema: schema, options: options).map {
        ExpectedError(message: $0.message, locations: $0.locations)
    }
}

func validateRaw(
    _ query: String, schema: GraphQLSchema = specSchema, options: ValidationOptions = .init()
) -> [GraphQLError] {
    let source = Source(query)
    do {
        let document = try Document(parsing: source)
        return Validator.validate(schema: schema, document: document, source: source, options: options)
    } catch {
        Issue.record("syntax error: \(error)")
        return []
    }
}

func buildSchema(_ sdl: String) -> GraphQLSchema {
    do { return try SchemaBuilder.build(sdl: sdl) } catch { fatalError("schema: \(error)") }
}
