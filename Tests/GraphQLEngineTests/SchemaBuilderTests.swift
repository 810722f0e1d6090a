import GraphQLLanguage
import Testing

@testable import GraphQLEngine

@Suite("§3 Schema from SDL")
struct SchemaBuilderTests {
    @Test("the bench's social schema builds, with default root names")
    func socialSchema() throws {
        let schema = try SchemaBuilder.build(sdl: try fixture("social_schema.graphql"))
        #expect(schema.queryType.name == "Query")
        #expect(schema.mutationType?.name == "Mutation")
        #expect(schema.type(named: "Profile")?.field(named: "followers")?.arguments.map(\.name) == ["first", "after"])
        #expect(schema.type(named: "__Schema") != nil)
    }

    @Test("printing the built schema gives the file's own canonical print")
    func printsBack() throws {
        let text = try fixture("social_schema.graphql")
        let schema = try SchemaBuilder.build(sdl: text)
        #expect(SchemaPrinter.print(schema) == (try Document(parsing: text)).printed)
    }

    @Test("§3.3 schema definition names the roots; extensions add fields")
    func rootsAndExtensions() throws {
        let schema = try SchemaBuilder.build(sdl: """
            schema { query: Root }
            type Root { a: Int }
            extend type Root { b: String }
            """)
        #expect(schema.queryType.name == "Root")
        #expect(schema.queryType.fields.map(\.name) == ["a", "b"])
        #expect(SchemaPrinter.print(schema) == "schema {\n  query: Root\n}\n\ntype Root {\n  a: Int\n  b: String\n}")
    }

    @Test("specified scalars appear only when used; introspection types always")
    func builtIns() throws {
        let schema = try SchemaBuilder.build(sdl: "type Query { a: Int }")
        #expect(schema.type(named: "Int") != nil)
        #expect(schema.type(named: "Float") == nil)
        #expect(schema.type(named: "String") != nil)  // used by introspection
        #expect(schema.directives.map(\.name) == ["include", "skip", "deprecated", "specifiedBy", "oneOf"])
    }

    @Test("@deprecated, @specifiedBy and @oneOf are read into the model")
    func specifiedDirectives() throws {
        let schema = try SchemaBuilder.build(sdl: """
            type Query { a: Int @deprecated b: Int @deprecated(reason: "use a") c(x: In): D }
            scalar D @specifiedBy(url: "https://example.com/d")
            input In @oneOf { p: Int q: String }
            """)
        #expect(schema.queryType.field(named: "a")?.deprecationReason == "No longer supported")
        #expect(schema.queryType.field(named: "b")?.deprecationReason == "use a")
        guard case .scalar(let d) = schema.type(named: "D"), case .inputObject(let input) = schema.type(named: "In") else {
            Issue.record("types missing"); return
        }
        #expect(d.specifiedByURL == "https://example.com/d")
        #expect(input.isOneOf)
    }

    @Test("unknown types, duplicates and bad extensions are reported with all their messages")
    func buildErrors() {
        #expect(schemaErrors("type Query { a: Profil } type Profile { id: ID }") == ["Unknown type \"Profil\". Did you mean \"Profile\"?"])
        #expect(schemaErrors("type Query { a: Int } type Query { b: Int }") == ["There can be only one type named \"Query\"."])
        #expect(schemaErrors("type Query { a: Int a: String }") == ["Field \"Query.a\" can only be defined once."])
        #expect(schemaErrors("type Query { a: Int } extend type Nope { b: Int }") == ["Cannot extend type \"Nope\" because it is not defined."])
        #expect(schemaErrors("type Query { a: Int } extend input Query { b: Int }") == ["Cannot extend non-object type \"Query\"."])
        #expect(schemaErrors("type Query { a: Int @unknown }") == ["Unknown directive \"@unknown\"."])
        #expect(schemaErrors("type Query @deprecated { a: Int }") == ["Directive \"@deprecated\" may not be used on OBJECT."])
        #expect(schemaErrors("type Query { a: Int } type __Bad { a: Int }") == ["Name \"__Bad\" must not begin with \"__\", which is reserved by GraphQL introspection."])
        #expect(schemaErrors("type Mutation { a: Int }") == ["Query root type must be provided."])
        #expect(schemaErrors("type Query { a: Int } query Q { a }") == ["A schema document cannot contain operations; found \"Q\"."])
    }

    @Test("§3 type validation: empty types, wrong input/output types, bad implementations, oneOf rules, non-null cycles")
    func typeValidation() {
        #expect(schemaErrors("type Query { a: In } input In { b: Int }") == ["The type of Query.a must be Output Type but got: In."])
        #expect(schemaErrors("type Query { a(x: Query): Int }") == ["The type of Query.a(x:) must be Input Type but got: Query."])
        #expect(schemaErrors("type Query { a: Int } interface I { f: Int } type T implements I { g: Int }") == ["Interface field I.f expected but T does not provide it."])
        #expect(schemaErrors("type Query { a: Int } interface I { f: Int } type T implements I { f: String }") == ["Interface field I.f expects type Int but T.f is type String."])
        #expect(schemaErrors("type Query { a: Int } interface I { f: Int } type T implements I { f: Int! }") == [])
        #expect(schemaErrors("type Query { a: Int } union U") == ["Union type U must define one or more member types."])
        #expect(schemaErrors("type Query { a: Int } enum E") == ["Enum type E must define one or more values."])
        #expect(schemaErrors("type Query { a(x: In): Int } input In @oneOf { p: Int! q: Int = 1 }") == [
            "OneOf input field In.p must be nullable.", "OneOf input field In.q cannot have a default value.",
        ])
        #expect(schemaErrors("type Query { a(x: A): Int } input A { b: B! } input B { a: A! }").first == "Cannot reference Input Object \"A\" within itself through a series of non-null fields: \"b.a\".")
        #expect(schemaErrors("type Query { a(x: A): Int } input A { b: [A!]! c: A }") == [])
    }

    @Test("error locations point into the SDL")
    func locations() throws {
        do {
            _ = try SchemaBuilder.build(sdl: "type Query {\n  a: Profil\n}")
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.first?.locations == [SourceLocation(line: 2, column: 6)])
        }
    }

    @Test("the SDL kitchen sink's definitions build once its undefined types are supplied")
    func kitchenSinkSDL() throws {
        // The kitchen sink references types it never defines; it is a parser fixture.
        // Here we only check that its interface-implements-interface shape is accepted.
        let schema = try SchemaBuilder.build(sdl: """
            type Query { foo: Foo }
            interface Two { two(argument: String!): String }
            interface Bar implements Two { one: String two(argument: String!): String }
            interface Baz implements Bar & Two { one: String two(argument: String!): String }
            type Foo implements Bar & Baz & Two { one: String two(argument: String!): String }
            """)
        guard case .interface(let bar) = schema.type(named: "Bar") else { Issue.record("no Bar"); return }
        #expect(schema.possibleTypes(of: .interface(bar)).map(\.name) == ["Foo"])
        #expect(schema.interfacesImplementing(bar).map(\.name) == ["Baz"])
    }
}
