import Foundation
import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// §6.4.3 CompleteValue of lists with null items, and §6.4.4 Handling Execution Errors
/// when the item type is non-null, for every kind of item type and on both of the
/// executor's completion paths.
///
/// The executor has two: a response that resolves synchronously is written straight to
/// JSON (`CompleteValueToJSON.swift`); a value an async resolver returns is completed
/// into the result tree (`CompleteValue.swift`). Each case runs twice on the same SDL:
/// once read by the default resolver from JSON (direct), once from async resolvers (tree).
@Suite("§6.4.3 list completion: null items over every item type, on both completion paths")
struct ListCompletionTests {
    /// An item kind: its type, a non-null sample item as data, that item as completed, and a sub-selection.
    struct Kind {
        let name: String
        let type: String
        let sample: JSONValue
        let completed: String
        let selection: String
    }

    static let kinds = [
        Kind(name: "scalar", type: "String", sample: "a", completed: #""a""#, selection: ""),
        Kind(name: "enum", type: "Color", sample: "RED", completed: #""RED""#, selection: ""),
        Kind(name: "object", type: "Item", sample: ["__typename": "Item", "n": 1], completed: #"{"n":1}"#, selection: "{ n }"),
        Kind(
            name: "interface", type: "Named", sample: ["__typename": "Item", "n": 1], completed: #"{"n":1}"#,
            selection: "{ n }"),
        Kind(
            name: "union", type: "Thing", sample: ["__typename": "Item", "n": 1], completed: #"{"n":1}"#,
            selection: "{ ... on Item { n } }"),
        Kind(name: "list", type: "[String]", sample: ["a"], completed: #"["a"]"#, selection: ""),
    ]

    /// The four list wrappings of an item type: a field-name suffix, and what follows the item type.
    static let wrappings: [(suffix: String, closing: String)] = [
        ("List", "]"), ("ListOfNonNull", "!]"), ("NonNullList", "]!"), ("NonNullListOfNonNull", "!]!"),
    ]

    static let fieldNames: [String] = kinds.flatMap { kind in wrappings.map { kind.name + $0.suffix } }

    static let sdl: String = {
        var fields = ""
        for kind in kinds {
            for wrapping in wrappings { fields += "  \(kind.name)\(wrapping.suffix): [\(kind.type)\(wrapping.closing)\n" }
        }
        return """
            type Query { box: Box }
            type Box {
            \(fields)  nested: [[String!]]
              nestedNonNull: [[String!]!]
              twoNulls: [String!]
              color: Color
              item: Item
              named: Named
              thing: Thing
              strings: [String]
            }
            enum Color { RED GREEN }
            interface Named { n: Int }
            type Item implements Named { n: Int }
            type Other { m: Int }
            union Thing = Item | Other
            """
    }()

    /// Every field of Box, read from the parent JSON by the default resolver: the direct path.
    static func directSchema() throws -> GraphQLSchema { try SchemaBuilder.build(sdl: sdl) }

    /// Every field of Box from an async resolver reading the parent JSON: the result-tree path.
    static func treeSchema() throws -> GraphQLSchema {
        let unbound = try SchemaBuilder.build(sdl: sdl)
        var binder = SchemaBinder(schema: unbound)
        let names = fieldNames + ["nested", "nestedNonNull", "twoNulls", "color", "item", "named", "thing", "strings"]
        for name in names {
            binder.bind("Box", name) { info in try info.parent(as: JSONValue.self)[name] }
        }
        let schema = try binder.finish(requireAll: false)
        return schema
    }

    /// `{ box { field selection } }` over `box`: the data as JSON, and each error as "message @ path".
    static func run(_ schema: GraphQLSchema, _ field: String, _ selection: String, box: JSONValue) async throws -> (
        data: String, errors: [String]
    ) {
        let root: JSONValue = ["box": box]
        let result = try await GraphQLEngineTests.run(schema, "{ box { \(field) \(selection) } }", root: root)
        let errors = result.errors.map { "\($0.message) @ \(($0.path ?? []).map(\.description).joined(separator: "."))" }
        return (JSONWriter.string(result.data ?? .null), errors)
    }

    /// The same SDL for each completion path.
    static func paths() throws -> [(name: String, schema: GraphQLSchema)] {
        [("direct", try directSchema()), ("tree", try treeSchema())]
    }

    @Test("§6.4.3 a null item in a nullable item position completes to null, for every item type and both paths")
    func nullItemInNullablePosition() async throws {
        for (pathName, schema) in try Self.paths() {
            for kind in Self.kinds {
                for suffix in ["List", "NonNullList"] {
                    let field = kind.name + suffix
                    let result = try await Self.run(schema, field, kind.selection, box: [field: [kind.sample, nil]])
                    #expect(
                        result.data == #"{"box":{"\#(field)":[\#(kind.completed),null]}}"#, "\(pathName) \(field)")
                    #expect(result.errors == [], "\(pathName) \(field)")
                }
            }
        }
    }

    @Test("§6.4.4 a null item in a non-null item position nulls the list, with one error at the item's path")
    func nullItemInNonNullPosition() async throws {
        for (pathName, schema) in try Self.paths() {
            for kind in Self.kinds {
                let field = kind.name + "ListOfNonNull"
                let result = try await Self.run(schema, field, kind.selection, box: [field: [kind.sample, nil]])
                #expect(result.data == #"{"box":{"\#(field)":null}}"#, "\(pathName) \(field)")
                #expect(
                    result.errors == ["Cannot return null for non-nullable field Box.\(field). @ box.\(field).1"],
                    "\(pathName) \(field)")
            }
        }
    }

    @Test("§6.4.4 a null item in a non-null list of non-null items nulls the list's parent, with one error")
    func nullItemInNonNullListOfNonNull() async throws {
        for (pathName, schema) in try Self.paths() {
            for kind in Self.kinds {
                let field = kind.name + "NonNullListOfNonNull"
                let result = try await Self.run(schema, field, kind.selection, box: [field: [kind.sample, nil]])
                #expect(result.data == #"{"box":null}"#, "\(pathName) \(field)")
                #expect(
                    result.errors == ["Cannot return null for non-nullable field Box.\(field). @ box.\(field).1"],
                    "\(pathName) \(field)")
            }
        }
    }

    @Test("§6.4.4 once a null item has nulled the list, the items after it add no error (as graphql-js)")
    func oneErrorPerNulledList() async throws {
        for (pathName, schema) in try Self.paths() {
            let result = try await Self.run(schema, "twoNulls", "", box: ["twoNulls": ["a", nil, nil]])
            #expect(result.data == #"{"box":{"twoNulls":null}}"#, "\(pathName)")
            #expect(result.errors == ["Cannot return null for non-nullable field Box.twoNulls. @ box.twoNulls.1"], "\(pathName)")
        }
    }

    @Test("§6.4.4 in nested lists the null goes up to the nearest nullable list, the path naming both indices")
    func nestedLists() async throws {
        let error = "Cannot return null for non-nullable field Box.%@. @ box.%@.0.1"
        for (pathName, schema) in try Self.paths() {
            let inner = try await Self.run(schema, "nested", "", box: ["nested": [["a", nil], ["b"]]])
            #expect(inner.data == #"{"box":{"nested":[null,["b"]]}}"#, "\(pathName)")
            #expect(inner.errors == [String(format: error, "nested", "nested")], "\(pathName)")
            let outer = try await Self.run(schema, "nestedNonNull", "", box: ["nestedNonNull": [["a", nil], ["b"]]])
            #expect(outer.data == #"{"box":{"nestedNonNull":null}}"#, "\(pathName)")
            #expect(outer.errors == [String(format: error, "nestedNonNull", "nestedNonNull")], "\(pathName)")
        }
    }

    @Test("§6.4.3 a nil boxed in an [any Sendable] is a null item, on both paths")
    func boxedNilItems() async throws {
        let none: String? = nil
        let items: [any Sendable] = [none as any Sendable, "RED"]
        for (pathName, isAsync) in [("direct", false), ("tree", true)] {
            let unbound = try Self.directSchema()
            var binder = SchemaBinder(schema: unbound)
            for field in ["scalarList", "enumList", "enumListOfNonNull"] {
                if isAsync { binder.bind("Box", field) { _ in items } } else { binder.bindSync("Box", field) { _ in items } }
            }
            let schema = try binder.finish(requireAll: false)
            let box: JSONValue = [:]
            for field in ["scalarList", "enumList"] {
                let result = try await Self.run(schema, field, "", box: box)
                #expect(result.data == #"{"box":{"\#(field)":[null,"RED"]}}"#, "\(pathName) \(field)")
                #expect(result.errors == [], "\(pathName) \(field)")
            }
            let nonNull = try await Self.run(schema, "enumListOfNonNull", "", box: box)
            #expect(nonNull.data == #"{"box":{"enumListOfNonNull":null}}"#, "\(pathName)")
            #expect(
                nonNull.errors == ["Cannot return null for non-nullable field Box.enumListOfNonNull. @ box.enumListOfNonNull.0"],
                "\(pathName)")
        }
    }

    @Test("§6.4.3 a JSON null resolved for an enum, object, interface, union or list field completes to null")
    func jsonNullFieldValues() async throws {
        let fields: [(String, String)] = [
            ("color", ""), ("item", "{ n }"), ("named", "{ n }"), ("thing", "{ __typename }"), ("strings", ""),
        ]
        for (field, selection) in fields {
            // Direct: a sync resolver returns JSON null (the default resolver already reads a JSON null as nil).
            let unboundDirect = try Self.directSchema()
            var binder = SchemaBinder(schema: unboundDirect)
            binder.bindSync("Box", field) { _ in JSONValue.null }
            let direct = try binder.finish(requireAll: false)
            for (pathName, schema) in [("direct", direct), ("tree", try Self.treeSchema())] {
                let result = try await Self.run(schema, field, selection, box: [field: nil])
                #expect(result.data == #"{"box":{"\#(field)":null}}"#, "\(pathName) \(field)")
                #expect(result.errors == [], "\(pathName) \(field)")
            }
        }
    }
}
