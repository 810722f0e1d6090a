import FuzzSupport
import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation

/// Validation of any document that parses, against the gateway's `schema.graphql`, the
/// benchmark schema or the execution fuzzer's schema (chosen by the input's length), with the
/// gateway's limits: it never traps, reports at most `maxErrors` errors, and every error's
/// locations lie inside the document.
let schemas = [
    Fuzz.schema("schema.graphql"),
    Fuzz.schema("Tests/GraphQLEngineTests/Fixtures/social_schema.graphql"),
    Fuzz.schema("Fuzz/Fixtures/execute_schema.graphql"),
]
let parseLimits = ParseOptions(maxTokens: 15_000, maxDepth: 64)
let options = ValidationOptions(maxErrors: 100, maxDepth: 12, maxFieldCount: 20_000, maxAliases: 50)

func fuzzValidate(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let text = Fuzz.string(data, count)
    let source = Source(text)
    guard let document = try? Document(parsing: source, options: parseLimits) else { return 0 }
    let schema = schemas[count % schemas.count]
    let errors = Validator.validate(schema: schema, document: document, source: source, options: options)
    if errors.count > options.maxErrors + 1 { Fuzz.fail("\(errors.count) errors reported", input: text) }
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }).count
    for error in errors {
        for location in error.locations where location.line < 1 || location.column < 1 || location.line > lines + 1 {
            Fuzz.fail("error \(error.message) at \(location) outside the document", input: text)
        }
    }
    return 0
}

Fuzz.run(fuzzValidate)
