import Foundation
import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// A schema whose data comes from JSON, read by the default resolver.
func jsonSchema(_ sdl: String) throws -> GraphQLSchema { try SchemaBuilder.build(sdl: sdl) }

@Suite("§6 Execution: operations, variables, arguments, errors")
struct ExecutionBehaviourTests {
    let schema: GraphQLSchema

    init() throws {
        let unbound = try jsonSchema("""
            type Query {
              hello(name: String = "world"): String
              count(n: Int!): Int
              user: User
              users: [User!]
              strictUser: User!
              color(c: Color): Color
              echo(input: In): String
              pick(one: One): String
              big: Int
              pet: Pet
            }
            type Mutation { a: String b: String }
            type Subscription { tick: Int }
            type User { name: String! email: String nick: String }
            enum Color { RED GREEN }
            input In { a: Int! b: [String] = ["x"] }
            input One @oneOf { a: Int b: String }
            interface Pet { name: String }
            type Dog implements Pet { name: String barks: Boolean }
            type Cat implements Pet { name: String meows: Boolean }
            """)
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "hello") { "Hello, \($0.arguments.string("name") ?? "?")" }
        binder.bindSync("Query", "count") { $0.arguments.int("n") }
        binder.bindSync("Query", "color") { $0.arguments.string("c") ?? "BLUE" }
        binder.bindSync("Query", "echo") { JSONWriter.string($0.arguments["input"] ?? .null) }
        binder.bindSync("Query", "pick") { JSONWriter.string($0.arguments["one"] ?? .null) }
        binder.bindSync("Query", "big") { _ in 3_000_000_000 }
        schema = try binder.finish(requireAll: false)
    }

    func run(_ query: String, variables: JSONObject = [:], operationName: String? = nil, root: JSONValue = [:]) async throws -> ExecutionResult {
        try await GraphQLEngineTests.run(schema, query, variables: variables, operationName: operationName, root: root)
    }

    @Test("§6.1 GetOperation: several operations need a name; an unknown name is an error")
    func operationSelection() async throws {
        let two = "query A { hello } query B { hello }"
        #expect(try await run(two).jsonString == #"{"errors":[{"message":"Must provide operation name if query contains multiple operations."}]}"#)
        #expect(try await run(two, operationName: "C").jsonString == #"{"errors":[{"message":"Unknown operation named \"C\"."}]}"#)
        #expect(try await run(two, operationName: "B").jsonString == #"{"data":{"hello":"Hello, world"}}"#)
    }

    @Test("§6.2.3 subscriptions are refused with a clear request error")
    func subscriptions() async throws {
        let result = try await run("subscription { tick }")
        #expect(!result.hasData)
        #expect(result.errors.map(\.message) == ["A subscription needs a transport that streams (WebSocket, server-sent events or multipart HTTP)."])
    }

    @Test("§6.1.2 a required variable that is missing, or null, is a request error")
    func requiredVariables() async throws {
        let query = "query Q($n: Int!) { count(n: $n) }"
        let missing = try await run(query)
        #expect(missing.jsonString == #"{"errors":[{"message":"Variable \"$n\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":9}]}]}"#)
        let null = try await run(query, variables: ["n": nil])
        #expect(null.errors.map(\.message) == [#"Variable "$n" of non-null type "Int!" must not be null."#])
    }

    @Test("§6.1.2 an invalid variable value says what and where, in graphql-js's words")
    func invalidVariables() async throws {
        let wrongType = try await run("query Q($n: Int!) { count(n: $n) }", variables: ["n": "abc"])
        #expect(wrongType.errors.map(\.message) == [#"Variable "$n" got invalid value "abc"; Int cannot represent non-integer value: "abc""#])
        let nested = try await run("query Q($i: In) { echo(input: $i) }", variables: ["i": ["a": 1, "b": [1]]])
        #expect(nested.errors.map(\.message) == [#"Variable "$i" got invalid value 1 at "i.b[0]"; String cannot represent a non string value: 1"#])
        let unknown = try await run("query Q($i: In) { echo(input: $i) }", variables: ["i": ["a": 1, "bb": []]])
        #expect(unknown.errors.map(\.message) == [#"Variable "$i" got invalid value { a: 1, bb: [] }; Field "bb" is not defined by type "In". Did you mean "b"?"#])
        let badEnum = try await run("query Q($c: Color) { color(c: $c) }", variables: ["c": "RDE"])
        #expect(badEnum.errors.map(\.message) == [#"Variable "$c" got invalid value "RDE"; Value "RDE" does not exist in "Color" enum. Did you mean "RED"?"#])
    }

    @Test("§3.10 input objects: defaults fill absent fields; a single value coerces to a list")
    func inputCoercion() async throws {
        let result = try await run("query Q($i: In) { echo(input: $i) }", variables: ["i": ["a": 1]])
        #expect(result.jsonString == #"{"data":{"echo":"{\"a\":1,\"b\":[\"x\"]}"}}"#)
        let single = try await run("query Q($i: In) { echo(input: $i) }", variables: ["i": ["a": 2, "b": "y"]])
        #expect(single.jsonString == #"{"data":{"echo":"{\"a\":2,\"b\":[\"y\"]}"}}"#)
    }

    @Test("§3.10.1 @oneOf inputs take exactly one non-null field")
    func oneOf() async throws {
        #expect(try await run(#"{ pick(one: {b: "x"}) }"#).jsonString == #"{"data":{"pick":"{\"b\":\"x\"}"}}"#)
        let two = try await run("query Q($o: One) { pick(one: $o) }", variables: ["o": ["a": 1, "b": "x"]])
        #expect(two.errors.map(\.message) == [#"Variable "$o" got invalid value { a: 1, b: "x" }; Exactly one key must be specified for OneOf type "One"."#])
    }

    @Test("§6.4.1 argument defaults apply when the argument is absent or its variable is not provided")
    func argumentDefaults() async throws {
        #expect(try await run("{ hello }").jsonString == #"{"data":{"hello":"Hello, world"}}"#)
        #expect(try await run("query Q($x: String) { hello(name: $x) }").jsonString == #"{"data":{"hello":"Hello, world"}}"#)
        #expect(try await run(#"{ hello(name: "Ada") }"#).jsonString == #"{"data":{"hello":"Hello, Ada"}}"#)
    }

    @Test("§6.4.4 a null in a non-null field nulls the nearest nullable parent, with the error's path and location")
    func nullPropagation() async throws {
        let root: JSONValue = ["user": ["email": "a@b.c"], "users": [["name": "A"], ["email": "x"]]]
        let user = try await run("{ user { name email } }", root: root)
        #expect(user.jsonString == #"{"errors":[{"message":"Cannot return null for non-nullable field User.name.","locations":[{"line":1,"column":10}],"path":["user","name"]}],"data":{"user":null}}"#)
        let list = try await run("{ users { name } }", root: root)
        #expect(list.data == ["users": nil])
        #expect(list.errors.first?.path == [.key("users"), .index(1), .key("name")])
        let strict = try await run("{ strictUser { name } hello }", root: ["strictUser": nil])
        #expect(strict.jsonString == #"{"errors":[{"message":"Cannot return null for non-nullable field Query.strictUser.","locations":[{"line":1,"column":3}],"path":["strictUser"]}],"data":null}"#)
    }

    @Test("§6.4.4 below an async field, a null in a non-null field still nulls the nearest nullable parent")
    func nullPropagationBelowAsyncFields() async throws {
        // Team.size is async, so Team objects are completed into slots; Member objects resolve
        // synchronously and are written straight to JSON. The null must cross that boundary.
        let unbound = try jsonSchema("""
            type Query { team: Team }
            type Team { name: String size: Int members: [Member!] }
            type Member { name: String! role: String }
            """)
        let team: JSONValue = ["name": "core", "members": [["name": "A"], ["role": "x"]]]
        var binder = SchemaBinder(schema: unbound)
        binder.bind("Query", "team") { _ in team }
        binder.bind("Team", "size") { _ in 2 }
        let schema = try binder.finish(requireAll: false)
        let result = try await GraphQLEngineTests.run(schema, "{ team { name size members { name } } }")
        #expect(result.jsonString == #"{"errors":[{"message":"Cannot return null for non-nullable field Member.name.","locations":[{"line":1,"column":30}],"path":["team","members",1,"name"]}],"data":{"team":{"name":"core","size":2,"members":null}}}"#)
        // Without the async field the whole team is written directly; the same null, the same error.
        let direct = try await GraphQLEngineTests.run(schema, "{ team { name members { name } } }")
        #expect(direct.jsonString == #"{"errors":[{"message":"Cannot return null for non-nullable field Member.name.","locations":[{"line":1,"column":25}],"path":["team","members",1,"name"]}],"data":{"team":{"name":"core","members":null}}}"#)
        #expect(direct.data == ["team": ["name": "core", "members": nil]])
    }

    @Test("§6.4.3 result coercion errors become field errors: an Int beyond 32 bits, an unknown enum value")
    func resultCoercion() async throws {
        let big = try await run("{ big }")
        #expect(big.jsonString == #"{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 3000000000","locations":[{"line":1,"column":3}],"path":["big"]}],"data":{"big":null}}"#)
        let color = try await run("{ color }")
        #expect(color.errors.map(\.message) == [#"Enum "Color" cannot represent value: "BLUE""#])
    }

    @Test("§6.4.3 ResolveAbstractType: __typename in the data picks the object type")
    func abstractTypes() async throws {
        let result = try await run(
            "{ pet { __typename name ... on Dog { barks } ... on Cat { meows } } }",
            root: ["pet": ["__typename": "Cat", "name": "Tom", "meows": true, "barks": false]])
        #expect(result.jsonString == #"{"data":{"pet":{"__typename":"Cat","name":"Tom","meows":true}}}"#)
        let unknown = try await run("{ pet { name } }", root: ["pet": ["__typename": "User", "name": "x"]])
        #expect(unknown.errors.map(\.message) == [#"Runtime Object type "User" is not a possible type for "Pet"."#])
    }

    @Test("§6.3.2 @skip and @include with variables; fields merge by response key in first-seen order")
    func fieldCollection() async throws {
        let query = "query Q($s: Boolean!) { a: hello b: hello @skip(if: $s) ...F a: hello } fragment F on Query { c: hello @include(if: $s) }"
        #expect(try await run(query, variables: ["s": true]).jsonString == #"{"data":{"a":"Hello, world","c":"Hello, world"}}"#)
        #expect(try await run(query, variables: ["s": false]).jsonString == #"{"data":{"a":"Hello, world","b":"Hello, world"}}"#)
    }

    @Test("§7.2 the response lists fields in selection order and JSON is escaped correctly")
    func ordering() async throws {
        let result = try await run(#"{ z: hello(name: "q\"\\\n\u0001é") a: hello }"#)
        #expect(result.jsonString == #"{"data":{"z":"Hello, q\"\\\n\u0001é","a":"Hello, world"}}"#)
    }

    @Test("§6.4.3 a resolved list of optionals: nil elements are null items, present ones complete as objects")
    func optionalListItems() async throws {
        let unbound = try SchemaBuilder.build(sdl: "type Query { maybe: [Item] } type Item { n: Int }")
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "maybe") { _ in [["n": 1], nil, ["n": 3]] as [JSONObject?] }
        let schema = try binder.finish(requireAll: false)
        let result = try await GraphQLEngineTests.run(schema, "{ maybe { n } }")
        #expect(result.jsonString == #"{"data":{"maybe":[{"n":1},null,{"n":3}]}}"#)
    }

    @Test("§6.2.2 a mutation without a Mutation type in the schema is a request error")
    func noMutationType() async throws {
        let schema = try SchemaBuilder.build(sdl: "type Query { a: Int }")
        let result = try await GraphQLEngineTests.run(schema, "mutation { a }")
        #expect(result.errors.map(\.message) == ["Schema is not configured to execute mutation operation."])
    }
}
