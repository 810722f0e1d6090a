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
