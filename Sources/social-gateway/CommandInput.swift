import ArgumentParser
import Foundation
import GraphQLEngine
import GraphQLLanguage

// What the `graphql` commands read: a file or standard input, a schema, an executable document.

/// Reads a file, or standard input for `-`; a missing file is a usage error (exit 2).
func readInput(_ path: String) throws -> [UInt8] {
    if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("error: cannot read \(path)\n".utf8))
        throw ExitCode(2)
    }
    return Array(data)
}

/// graphql-js 17's `@defer` and `@stream`, for a schema file that does not declare them.
let incrementalDirectivesSDL = """

    "Directs the executor to defer this fragment when the `if` argument is true or undefined."
    directive @defer("Deferred when true or undefined." if: Boolean! = true, "Unique name" label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT

    "Directs the executor to stream plural fields when the `if` argument is true or undefined."
    directive @stream("Stream when true or undefined." if: Boolean! = true, "Unique name" label: String, "Number of items to return immediately" initialCount: Int! = 0) on FIELD
    """

/// Loads and builds a schema file; a schema that does not load exits 2 with its errors.
/// - Parameter declaringIncrementalDirectives: adds `@defer` and `@stream` when the file has neither.
func loadSchema(_ path: String, declaringIncrementalDirectives: Bool = false) throws -> GraphQLSchema {
    let bytes = try readInput(path)
    do {
        let source = try Source(bytes: bytes, name: path)
        if declaringIncrementalDirectives, !source.body.contains("directive @defer"), !source.body.contains("directive @stream") {
            return try SchemaBuilder.build(sdl: source.body + incrementalDirectivesSDL, name: path)
        }
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
