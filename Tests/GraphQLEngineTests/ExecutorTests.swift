import Foundation
import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// Parses, then executes `query` against `schema` with `variables`.
func run(
    _ schema: GraphQLSchema, _ query: String, variables: JSONObject = [:], operationName: String? = nil,
    context: any Sendable = (), root: any Sendable = ()
) async throws -> ExecutionResult {
    let source = Source(query)
    let document = try Document(parsing: source)
    return await Executor.execute(
        schema: schema,
        request: GraphQLRequest(
            document: document, source: source, operationName: operationName, variables: variables, context: context,
            rootValue: root))
}

@Suite("§6 Execution")
struct ExecutorTests {
    @Test("the bench query over the bench dataset reproduces expected_social_response.json byte for byte")
    func benchResponse() async throws {
        let schema = try SocialBenchData().bind(try SchemaBuilder.build(sdl: try fixture("social_schema.graphql")))
        guard case .object(let variables) = try JSONParser.parse(try fixture("social_variables.json")) else {
            Issue.record("variables are not an object"); return
        }
        let result = try await run(schema, try fixture("social_query.graphql"), variables: variables)
        let expected = try fixture("expected_social_response.json")
        #expect(result.errors.isEmpty)
        #expect(result.jsonString == expected.trimmingCharacters(in: .newlines))
    }
}
