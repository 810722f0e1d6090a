import FuzzSupport
import GraphQLEngine
import GraphQLLanguage

/// Execution of any document that parses and validates against the fixture schema, on the
/// fixture's data: it never traps or hangs, and always answers a well-formed response.
let parseLimits = ParseOptions(maxTokens: 15_000, maxDepth: 64)

func fuzzExecute(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let text = Fuzz.string(data, count)
    let source = Source(text)
    guard let document = try? Document(parsing: source, options: parseLimits) else { return 0 }
    ExecutionFixture.run(document, source: source, variables: [:], input: text)
    return 0
}

ExecutionFixture.prepare()
Fuzz.run(fuzzExecute)
