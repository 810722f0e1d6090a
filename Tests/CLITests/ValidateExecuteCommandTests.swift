import Foundation
import Testing

@Suite("social-gateway graphql validate / execute")
struct ValidateExecuteCommandTests {
    static let schema = """
        type Query { profile(handle: String!): Profile  feed: [Item!]! }
        type Profile { handle: String! followerCount: Int }
        union Item = Profile | Post
        type Post { title: String }
        """

    func files(_ query: String) throws -> (schema: String, query: String) {
        (try CLIRunner.temporaryFile(Data(Self.schema.utf8), name: "schema.graphql"), try CLIRunner.temporaryFile(Data(query.utf8)))
    }

    @Test("validate: a valid document exits 0")
    func valid() async throws {
        let (schema, query) = try files(#"{ profile(handle: "a") { handle } }"#)
        let result = try await CLIRunner.run(["graphql", "validate", "--schema", schema, query])
        #expect(result.status == 0)
        #expect(result.stdout == "")
    }

    @Test("validate: each violation is one error with its locations, exit 1")
    func invalid() async throws {
        let (schema, query) = try files("{\n  profile { handel }\n}")
        let result = try await CLIRunner.run(["graphql", "validate", "--schema", schema, query])
        #expect(result.status == 1)
        // graphql-js order: a missing argument is reported when leaving the field, after its children.
        #expect(result.stdout == #"{"errors":[{"message":"Cannot query field \"handel\" on type \"Profile\". Did you mean \"handle\"?","locations":[{"line":2,"column":13}]},{"message":"Field \"profile\" argument \"handle\" of type \"String!\" is required, but it was not provided.","locations":[{"line":2,"column":3}]}]}"# + "\n")
    }

    @Test("validate: a schema that fails to load exits 2 with the schema's errors")
    func badSchema() async throws {
        let schema = try CLIRunner.temporaryFile(Data("type Query { a: Nope }".utf8), name: "schema.graphql")
        let query = try CLIRunner.temporaryFile(Data("{ a }".utf8))
        let result = try await CLIRunner.run(["graphql", "validate", "--schema", schema, query])
        #expect(result.status == 2)
        #expect(result.stdout == #"{"errors":[{"message":"Unknown type \"Nope\".","locations":[{"line":1,"column":17}]}]}"# + "\n")
    }

    @Test("execute: default resolvers read the fixture JSON; __typename picks union members; variables apply")
    func execute() async throws {
        let (schema, query) = try files("query Q($h: String!) { profile(handle: $h) { handle followerCount } feed { __typename ... on Post { title } ... on Profile { handle } } }")
        let data = try CLIRunner.temporaryFile(Data(#"{"profile":{"handle":"ada","followerCount":3},"feed":[{"__typename":"Post","title":"Hi"},{"__typename":"Profile","handle":"bo"}]}"#.utf8), name: "data.json")
        let variables = try CLIRunner.temporaryFile(Data(#"{"h":"ada"}"#.utf8), name: "vars.json")
        let result = try await CLIRunner.run(["graphql", "execute", "--schema", schema, "--data", data, "--variables", variables, query])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"data":{"profile":{"handle":"ada","followerCount":3},"feed":[{"__typename":"Post","title":"Hi"},{"__typename":"Profile","handle":"bo"}]}}"# + "\n")
    }

    @Test("execute: a missing required variable is a request error, exit 1; unreadable JSON data exits 2")
    func executeErrors() async throws {
        let (schema, query) = try files("query Q($h: String!) { profile(handle: $h) { handle } }")
        let data = try CLIRunner.temporaryFile(Data("{}".utf8), name: "data.json")
        let missing = try await CLIRunner.run(["graphql", "execute", "--schema", schema, "--data", data, query])
        #expect(missing.status == 1)
        #expect(missing.stdout == #"{"errors":[{"message":"Variable \"$h\" of required type \"String!\" was not provided.","locations":[{"line":1,"column":9}]}]}"# + "\n")
        let bad = try CLIRunner.temporaryFile(Data("{nope".utf8), name: "bad.json")
        let notJSON = try await CLIRunner.run(["graphql", "execute", "--schema", schema, "--data", bad, query])
        #expect(notJSON.status == 2)
        #expect(notJSON.stderr.contains("is not valid JSON"))
    }

    @Test("execute --incremental: the initial payload, then each later one, one JSON object per line, in order")
    func executeIncremental() async throws {
        // The schema file declares neither directive: --incremental adds graphql-js's definitions.
        let (schema, query) = try files(#"{ profile(handle: "ada") { handle ... @defer(label: "count") { followerCount } } }"#)
        let data = try CLIRunner.temporaryFile(Data(#"{"profile":{"handle":"ada","followerCount":3}}"#.utf8), name: "data.json")
        let v02 = try await CLIRunner.run(["graphql", "execute", "--schema", schema, "--data", data, "--incremental", "v0.2", query])
        #expect(v02.status == 0)
        #expect(
            v02.stdout
                == #"{"data":{"profile":{"handle":"ada"}},"pending":[{"id":"0","path":["profile"],"label":"count"}],"hasNext":true}"# + "\n"
                + #"{"hasNext":false,"incremental":[{"data":{"followerCount":3},"id":"0"}],"completed":[{"id":"0"}]}"# + "\n")
        let v01 = try await CLIRunner.run(["graphql", "execute", "--schema", schema, "--data", data, "--incremental", "v0.1", query])
        #expect(
            v01.stdout
                == #"{"data":{"profile":{"handle":"ada"}},"hasNext":true}"# + "\n"
                + #"{"hasNext":false,"incremental":[{"data":{"followerCount":3},"path":["profile"],"label":"count"}]}"# + "\n")
        // Without --incremental the same file does not validate (the directive is unknown there).
        let plain = try await CLIRunner.run(["graphql", "execute", "--schema", schema, "--data", data, query])
        #expect(plain.status == 1)
        let unknown = try await CLIRunner.run(["graphql", "execute", "--schema", schema, "--data", data, "--incremental", "v3", query])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("v0.1") && unknown.stderr.contains("v0.2"))
    }
}
