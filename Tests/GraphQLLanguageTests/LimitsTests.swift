import Testing
@testable import GraphQLLanguage

@Suite("Parser limits: hostile input gets a clean error, never a crash")
struct LimitsTests {
    @Test("100,000 nested { give a depth error, not a stack overflow")
    func deepSelections() {
        let text = String(repeating: "{a", count: 100_000)
        let error = syntaxError(text)
        #expect(error?.message == "Syntax Error: Document is nested more than 256 levels deep. Parsing aborted.")
        #expect(error?.location == GraphQLLanguage.SourceLocation(line: 1, column: 2 * 256 + 1))
    }

    @Test("100,000 nested [ in a value give a depth error")
    func deepLists() {
        let text = "{ f(a: " + String(repeating: "[", count: 100_000) + ") }"
        #expect(syntaxError(text)?.message == "Syntax Error: Document is nested more than 256 levels deep. Parsing aborted.")
    }

    @Test("100,000 nested [ in a type give a depth error")
    func deepTypes() {
        let text = "query ($a: " + String(repeating: "[", count: 100_000) + "Int" + ") { f }"
        #expect(syntaxError(text)?.message == "Syntax Error: Document is nested more than 256 levels deep. Parsing aborted.")
    }

    @Test("nesting up to the limit parses; one more level does not")
    func depthBoundary() throws {
        let options = ParseOptions(maxDepth: 10)
        let ok = String(repeating: "{a", count: 10) + String(repeating: "}", count: 10)
        #expect(throws: Never.self) { try Document(parsing: ok, options: options) }
        let tooDeep = String(repeating: "{a", count: 11) + String(repeating: "}", count: 11)
        #expect(syntaxError(tooDeep, options: options)?.message == "Syntax Error: Document is nested more than 10 levels deep. Parsing aborted.")
    }

    @Test("the token limit stops parsing at the first token over it; comments do not count")
    func tokenLimit() throws {
        let options = ParseOptions(maxTokens: 4)
        #expect(throws: Never.self) { try Document(parsing: "{ a # many words here\n b }", options: options) }
        let error = syntaxError("{ a b c }", options: options)
        #expect(error?.message == "Syntax Error: Document contains more than 4 tokens. Parsing aborted.")
        #expect(error?.location == GraphQLLanguage.SourceLocation(line: 1, column: 9))
    }

    @Test("the default limits are documented values")
    func defaults() {
        #expect(ParseOptions().maxTokens == 1_000_000)
        #expect(ParseOptions().maxDepth == 256)
    }
}
