import Testing
@testable import GraphQLLanguage

@Suite("§3 Type system definitions")
struct TypeSystemParserTests {
    @Test("§3.3 schema definition with description and root operation types")
    func schema() throws {
        let document = try Document(parsing: "\"The schema\" schema @d { query: Q mutation: M }")
        guard case .schema(let schema) = document.definitions[0] else { Issue.record("no schema"); return }
        #expect(schema.description?.value == "The schema")
        #expect(schema.operationTypes.map(\.operation) == [.query, .mutation])
        #expect(schema.operationTypes.map(\.type.name.value) == ["Q", "M"])
    }

    @Test("§3.7 interfaces implementing interfaces, with a leading ampersand")
    func interfaces() throws {
        let document = try Document(parsing: "interface A implements & B & C { f: Int }")
        guard case .type(.interface(let i)) = document.definitions[0] else { Issue.record("no interface"); return }
        #expect(i.interfaces.map(\.name.value) == ["B", "C"])
    }

    @Test("§3.8 unions with a leading pipe, and without members")
    func unions() throws {
        let document = try Document(parsing: "union U = | A | B union V")
        guard case .type(.union(let u)) = document.definitions[0], case .type(.union(let v)) = document.definitions[1]
        else { Issue.record("no unions"); return }
        #expect(u.types.map(\.name.value) == ["A", "B"])
        #expect(v.types.isEmpty)
    }

    @Test("§3.10 @oneOf input objects and default values")
    func inputObjects() throws {
        let document = try Document(parsing: "input I @oneOf { a: Int = 1 b: [String] = [\"x\"] }")
        guard case .type(.inputObject(let input)) = document.definitions[0] else { Issue.record("no input"); return }
        #expect(input.directives.map(\.name.value) == ["oneOf"])
        #expect(input.fields.map(\.name.value) == ["a", "b"])
    }

    @Test("§3.13 repeatable directive definitions and their locations")
    func directives() throws {
        let document = try Document(parsing: "directive @cache(maxAge: Int) repeatable on | FIELD_DEFINITION | OBJECT")
        guard case .directive(let d) = document.definitions[0] else { Issue.record("no directive"); return }
        #expect(d.isRepeatable)
        #expect(d.locations.map(\.value) == ["FIELD_DEFINITION", "OBJECT"])
    }

    @Test("§3.13 an unknown directive location is rejected")
    func unknownLocation() {
        expectSyntaxError("directive @d on FIELD | NOWHERE", "Syntax Error: Unexpected Name \"NOWHERE\".", 1, 25)
    }

    @Test("§3.9 true, false and null cannot be enum values")
    func reservedEnumValues() {
        expectSyntaxError("enum E { A true }", "Syntax Error: Name \"true\" is reserved and cannot be used for an enum value.", 1, 12)
    }

    @Test("§3.4.3 every kind of extension, and extensions that add nothing are rejected")
    func extensions() throws {
        let text = """
            extend schema @d { subscription: S }
            extend scalar S @d
            extend type T implements I
            extend interface I @d
            extend union U = A
            extend enum E { X }
            extend input In { a: Int }
            """
        let document = try Document(parsing: text)
        #expect(document.definitions.count == 7)
        expectSyntaxError("extend type T", "Syntax Error: Unexpected <EOF>.", 1, 14)
        expectSyntaxError("extend scalar S { }", "Syntax Error: Unexpected \"{\".", 1, 17)
        expectSyntaxError("extend schema", "Syntax Error: Unexpected <EOF>.", 1, 14)
        expectSyntaxError("extend nothing X", "Syntax Error: Unexpected Name \"nothing\".", 1, 8)
    }

    @Test("§3.6 a fields definition cannot be empty")
    func emptyFields() {
        expectSyntaxError("type T {}", "Syntax Error: Expected Name, found \"}\".", 1, 9)
        expectSyntaxError("type T { f(): Int }", "Syntax Error: Expected Name, found \")\".", 1, 12)
    }

    @Test("the schema kitchen sink parses: 38 definitions")
    func schemaKitchenSink() throws {
        let document = try Document(parsing: try fixture("schema_kitchen_sink.graphql"))
        #expect(document.definitions.count == 38)
    }

    @Test("executable and type-system definitions may be mixed in one document")
    func mixed() throws {
        let document = try Document(parsing: "type Query { a: Int } { a } extend type Query { b: Int }")
        #expect(document.definitions.map(\.isExecutable) == [false, true, false])
    }
}
