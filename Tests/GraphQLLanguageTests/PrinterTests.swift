import Testing
@testable import GraphQLLanguage

@Suite("Printer: canonical GraphQL in graphql-js's layout")
struct PrinterTests {
    let noLocation = ParseOptions(noLocation: true)

    /// parse -> print -> parse gives the same AST, and print is a fixed point.
    func expectRoundTrip(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let first = try Document(parsing: text, options: noLocation)
        let printed = first.printed
        let second = try Document(parsing: printed, options: noLocation)
        #expect(second == first, "parse(print(ast)) differs", sourceLocation: sourceLocation)
        #expect(second.printed == printed, "print is not stable", sourceLocation: sourceLocation)
    }

    @Test("the query kitchen sink round-trips and prints exactly as graphql-js prints it")
    func kitchenSink() throws {
        let text = try fixture("kitchen_sink.graphql")
        try expectRoundTrip(text)
        let printed = try Document(parsing: text).printed
        #expect(printed.contains("subscription StoryLikeSubscription($input: StoryLikeSubscribeInput @onVariableDefinition) @onSubscription {"))
        #expect(printed.contains("  foo(\n    size: $size\n    bar: $b\n    obj: {key: \"value\", block: \"\"\"\n    block string uses \\\"\"\"\n    \"\"\"}\n  )"))
        #expect(printed.hasSuffix("{\n  unnamed(truthy: true, falsy: false, nullish: null)\n  query\n}\n\n{\n  __typename\n}"))
    }

    @Test("the schema kitchen sink round-trips")
    func schemaKitchenSink() throws {
        let text = try fixture("schema_kitchen_sink.graphql")
        try expectRoundTrip(text)
        let printed = try Document(parsing: text).printed
        #expect(printed.contains("union Feed = Story | Article | Advert"))
        #expect(printed.contains("directive @myRepeatableDir(name: String!) repeatable on OBJECT | INTERFACE"))
        #expect(printed.contains("type Foo implements Bar & Baz & Two {\n  \"Description of the `one` field.\"\n  one: Type"))
        #expect(printed.contains("  two(\n    \"\"\"This is a description of the `argument` argument.\"\"\"\n    argument: InputType!\n  ): Type"))
        #expect(printed.contains("extend schema @onSchema {\n  subscription: SubscriptionType\n}"))
        #expect(printed.contains("input OneOfInputType @oneOf {"))
    }

    @Test("the large bench query round-trips", .enabled(if: benchFile("large_query.graphql") != nil))
    func largeQuery() throws {
        try expectRoundTrip(benchFile("large_query.graphql")!)
    }

    @Test("whitespace and comments do not change the printed form")
    func canonical() throws {
        let a = try Document(parsing: "query Q($a:Int=1){viewer{handle}}").printed
        let b = try Document(parsing: "# comment\nquery   Q ( $a : Int = 1 ) {\n viewer ,{ handle } }").printed
        #expect(a == b)
        #expect(a == "query Q($a: Int = 1) {\n  viewer {\n    handle\n  }\n}")
    }

    @Test("arguments wrap one per line only when the line would pass 80 columns")
    func argumentWrapping() throws {
        let short = try Document(parsing: "{ f(a: 1, b: 2) }").printed
        #expect(short == "{\n  f(a: 1, b: 2)\n}")
        let long = try Document(parsing: "{ f(argumentNumberOne: \"aaaaaaaaaaaa\", argumentNumberTwo: \"bbbbbbbbbbbbbbbbbbbbbbbbb\") }").printed
        #expect(long == "{\n  f(\n    argumentNumberOne: \"aaaaaaaaaaaa\"\n    argumentNumberTwo: \"bbbbbbbbbbbbbbbbbbbbbbbbb\"\n  )\n}")
    }

    @Test("strings print with JSON-like escapes and round-trip")
    func stringEscapes() throws {
        let value = "q\" b\\ \u{8}\u{C}\n\r\t \u{1} \u{7F} é 😀"
        #expect(Printer.printString(value) == "\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001 \\u007F é 😀\"")
        try expectRoundTrip("{ f(a: \(Printer.printString(value))) }")
    }

    @Test("block strings print readably and keep their value")
    func blockStrings() throws {
        #expect(BlockString.print("single line") == "\"\"\"single line\"\"\"")
        #expect(BlockString.print("two\nlines") == "\"\"\"\ntwo\nlines\n\"\"\"")
        #expect(BlockString.print("ends with \"") == "\"\"\"\nends with \"\n\"\"\"")
        #expect(BlockString.print("has \"\"\" inside") == "\"\"\"has \\\"\"\" inside\"\"\"")
        #expect(BlockString.print("  leading space") == "\"\"\"  leading space\"\"\"")
        for value in ["a\n  b\n\tc", "  leading", "trailing\\", "\"\"\"", "x\n\n\ny", "line\r\nbreak"] {
            let literal = BlockString.print(value)
            let parsed = try stringValue(literal)
            #expect(parsed == value.replacing("\r\n", with: "\n"), "block string \(literal)")
        }
    }

    @Test("descriptions on executable definitions print before them")
    func executableDescriptions() throws {
        let text = "\"Loads\" query Q(\"id\" $id: ID) { f } \"card\" fragment F on T { a }"
        let printed = try Document(parsing: text).printed
        #expect(printed == "\"Loads\"\nquery Q(\n  \"id\"\n  $id: ID\n) {\n  f\n}\n\n\"card\"\nfragment F on T {\n  a\n}")
        try expectRoundTrip(text)
    }
}

/// A file from the team's shared bench folder, when this checkout has it beside it.
func benchFile(_ name: String) -> String? {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/bench/\(name)")
    return try? String(contentsOf: url, encoding: .utf8)
}

import Foundation
