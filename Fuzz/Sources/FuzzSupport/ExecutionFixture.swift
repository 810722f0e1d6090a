import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation

/// The execution fuzzers' world: a schema with every kind of type and a root value, read from
/// `Fuzz/Fixtures`, whose data holds the awkward cases (null items, unknown enum values, a
/// `__typename` that names no type).
public enum ExecutionFixture {
    public static let schema = Fuzz.schema("Fuzz/Fixtures/execute_schema.graphql")
    public static let root: JSONValue = {
        do {
            return try JSONParser.parse(Fuzz.text("Fuzz/Fixtures/execute_root.json"))
        } catch {
            fatalError("Fuzz/Fixtures/execute_root.json: \(error)")
        }
    }()

    /// Builds the schema and the root value now, before libFuzzer starts: made during the first
    /// input, they would count as that input's leak (they live as long as the process).
    public static func prepare() {
        _ = schema
        _ = root
    }

    /// Validates and executes `document` as the gateway would, and checks what any response
    /// must be: JSON that parses, an object with `data` or `errors`.
    public static func run(_ document: Document, source: Source, variables: JSONObject, input: String) {
        let errors = Validator.validate(schema: schema, document: document, source: source, options: ValidationOptions(maxDepth: 12, maxFieldCount: 20_000, maxAliases: 50))
        guard errors.isEmpty else { return }
        let request = GraphQLRequest(document: document, source: source, variables: variables, rootValue: root)
        let result = Fuzz.wait { await Executor.execute(schema: schema, request: request) }
        let bytes = result.serialized()
        guard case .object(let response)? = try? JSONParser.parse(bytes) else {
            Fuzz.fail("the response is not a JSON object: \(String(decoding: bytes, as: UTF8.self))", input: input)
        }
        if response["data"] == nil, response["errors"] == nil {
            Fuzz.fail("the response has neither data nor errors: \(String(decoding: bytes, as: UTF8.self))", input: input)
        }
    }
}
