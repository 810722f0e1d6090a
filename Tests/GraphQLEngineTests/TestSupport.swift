import Foundation
import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// Reads a fixture next to this file.
func fixture(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    return try String(contentsOf: url, encoding: .utf8)
}

/// The messages of the schema errors `sdl` produces (empty when it builds).
func schemaErrors(_ sdl: String) -> [String] {
    do {
        _ = try SchemaBuilder.build(sdl: sdl)
        return []
    } catch {
        return error.errors.map(\.message)
    }
}
