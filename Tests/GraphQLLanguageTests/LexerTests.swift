import Foundation
import Testing
@testable import GraphQLLanguage

@Suite("§2.1 Source text and lexical tokens")
struct LexerTests {
    @Test("§2.1.7 ignored tokens: BOM, whitespace, commas, comments and line terminators are skipped")
    func ignoredTokens() throws {
        let document = try Document(parsing: "\u{FEFF}# comment\r\n{ ,,a\t,# c\r b\n}", options: ParseOptions(noLocation: true))
        #expect(document.printed == "{\n  a\n  b\n}")
    }

    @Test("§2.1.6 punctuators are read, including the three-character spread")
    func punctuators() throws {
        let text = "query Q($a: [Int!]! = [1]) @d { ... on T { x } ...F } fragment F on T { y }"
        #expect(throws: Never.self) { try Document(parsing: text) }
    }

    @Test("§2.1.9 names: letters, digits and underscores, not starting with a digit")
    func names() throws {
        let value = try parseArgumentValue("_aZ09_")
        #expect(value == .enumValue(EnumValue("_aZ09_")))
    }

    @Test("§2.9.1 int values keep their source text, including negative zero")
    func ints() throws {
        #expect(try parseArgumentValue("-0") == .int(IntValue("-0")))
        #expect(try parseArgumentValue("123456789012345678901234") == .int(IntValue("123456789012345678901234")))
    }

    @Test("§2.9.2 float values with fraction and exponent")
    func floats() throws {
        for text in ["1.5", "-1.5e10", "1E-3", "0.0", "6.02e+23"] {
            #expect(try parseArgumentValue(text) == .float(FloatValue(text)))
        }
    }

    @Test("§2.9.1 a leading zero followed by a digit is rejected")
    func leadingZero() {
        expectSyntaxError("{ f(a: 01) }", "Syntax Error: Invalid number, unexpected digit after 0: \"1\".", 1, 9)
    }

    @Test("§2.9.1 a name straight after a number is rejected (0x1, 123abc)")
    func nameAfterNumber() {
        expectSyntaxError("{ f(a: 0x1) }", "Syntax Error: Invalid number, expected digit but got: \"x\".", 1, 9)
        expectSyntaxError("{ f(a: 123abc) }", "Syntax Error: Invalid number, expected digit but got: \"a\".", 1, 11)
        expectSyntaxError("{ f(a: 1.5.5) }", "Syntax Error: Invalid number, expected digit but got: \".\".", 1, 11)
    }

    @Test("§2.9.2 an exponent or fraction needs digits (1.0e, 1., 1.e1)")
    func incompleteFloats() {
        expectSyntaxError("{ f(a: 1.0e) }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1, 12)
        expectSyntaxError("1.0e", "Syntax Error: Invalid number, expected digit but got: <EOF>.", 1, 5)
        expectSyntaxError("{ f(a: 1.) }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1, 10)
        expectSyntaxError("{ f(a: -) }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1, 9)
    }

    @Test("§2.9.4 string escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t")
    func simpleEscapes() throws {
        #expect(try stringValue(#""q\" b\\ s\/ \b\f\n\r\t""#) == "q\" b\\ s/ \u{08}\u{0C}\n\r\t")
    }

    @Test("§2.9.4 fixed-width and variable-width unicode escapes")
    func unicodeEscapes() throws {
        #expect(try stringValue(#""\u00e9\u00C9""#) == "éÉ")
        #expect(try stringValue(#""\u{1F600} \u{0}""#) == "😀 \u{0}")
        #expect(try stringValue(#""\u{10FFFF}""#) == "\u{10FFFF}")
    }

    @Test("§2.9.4 a surrogate pair of fixed-width escapes is one scalar")
    func surrogatePairs() throws {
        #expect(try stringValue(#""\uD83D\uDE00""#) == "😀")
    }

    @Test("§2.9.4 a lone or reversed surrogate is an invalid escape")
    func loneSurrogates() {
        expectSyntaxError(#"{ f(a: "\uD83D") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\uD83D"."#, 1, 9)
        expectSyntaxError(#"{ f(a: "\uDE00\uD83D") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\uDE00"."#, 1, 9)
        expectSyntaxError(#"{ f(a: "\u{D83D}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{D83D}"."#, 1, 9)
    }

    @Test("§2.9.4 malformed unicode escapes are rejected with the sequence quoted")
    func badUnicodeEscapes() {
        expectSyntaxError(#"{ f(a: "\u{110000}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{110000}"."#, 1, 9)
        expectSyntaxError(#"{ f(a: "\u{}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{}"."#, 1, 9)
        expectSyntaxError(#"{ f(a: "\u12") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u12")"."#, 1, 9)
        expectSyntaxError(#""\u00"#, #"Syntax Error: Invalid Unicode escape sequence: "\u00"."#, 1, 2)
        expectSyntaxError(#"{ f(a: "\uXYZW") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\uXYZW"."#, 1, 9)
    }

    @Test("§2.9.4 an unknown escape character is rejected")
    func badEscape() {
        expectSyntaxError(#"{ f(a: "a\x") }"#, #"Syntax Error: Invalid character escape sequence: "\x"."#, 1, 10)
    }

    @Test("§2.9.4 unterminated strings: at a line break and at the end")
    func unterminatedStrings() {
        expectSyntaxError("{ f(a: \"abc\n\") }", "Syntax Error: Unterminated string.", 1, 12)
        expectSyntaxError("\"abc", "Syntax Error: Unterminated string.", 1, 5)
        expectSyntaxError("\"\"\"abc\"\"", "Syntax Error: Unterminated string.", 1, 9)
    }

    @Test("§2.9.4 a long literal or name repeated in a document reads the same each time, a different spelling on its own")
    func repeatedLongLiterals() throws {
        let quoted = #""a string long enough to share \n\u00e9""#
        let block = "\"\"\"\n    a block string long enough\n      indented\n\"\"\""
        let value = try parseArgumentValue(
            "[\(quoted), \(block), \(quoted), \(block), \"a string long enough to share \\u000A\\u00E9\", "
                + "aVeryLongEnumValueName, aVeryLongEnumValueName]")
        guard case .list(let list) = value else { Issue.record("not a list"); return }
        let cooked = "a string long enough to share \né"
        let dedented = "a block string long enough\n  indented"
        #expect(list.values == [
            .string(StringValue(cooked)), .string(StringValue(dedented, isBlock: true)), .string(StringValue(cooked)),
            .string(StringValue(dedented, isBlock: true)), .string(StringValue(cooked)),
            .enumValue(EnumValue("aVeryLongEnumValueName")), .enumValue(EnumValue("aVeryLongEnumValueName")),
        ])
    }

    @Test("§2.9.4 a bad escape is found after a valid long string with the same beginning")
    func badEscapeAfterRepeat() {
        expectSyntaxError(
            #"{ f(a: "long enough string \n", b: "long enough string \x") }"#,
            #"Syntax Error: Invalid character escape sequence: "\x"."#, 1, 56)
    }

    @Test("§2.9.4 raw non-ASCII and control characters are allowed inside strings")
    func rawCharacters() throws {
        #expect(try stringValue("\"café 日本 😀 \u{7}\"") == "café 日本 😀 \u{7}")
    }

    @Test("§2.9.4 block strings: common indentation and blank first and last lines are removed")
    func blockStringIndentation() throws {
        let literal = "\"\"\"\n\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\""
        #expect(try stringValue(literal) == "Hello,\n  World!\n\nYours,\n  GraphQL.")
    }

    @Test("§2.9.4 block strings: the first line keeps its indentation, \\\"\"\" is a triple quote, escapes are raw")
    func blockStringRaw() throws {
        #expect(try stringValue("\"\"\"  first\n    second \\\"\"\" \\n\"\"\"") == "  first\nsecond \"\"\" \\n")
        #expect(try stringValue("\"\"\"\r\n  a\r  b\r\n\"\"\"") == "a\nb")
        #expect(try stringValue("\"\"\"\"\"\"") == "")
    }

    @Test("§2.9.4 block strings: the value equals the spec's BlockStringValue on 4,000 generated texts")
    func blockStringMatchesSpecAlgorithm() throws {
        // Pieces that cannot end the string early: no lone quote or backslash. Half the
        // texts have no \""" (the lexer then copies whole lines); lengths reach past
        // the eight bytes the line scan reads at a time.
        let pieces = [" ", "  ", "\t", "\n", "\r", "\r\n", "a", "bc", "é", "😀", "x y", "eight by", #"\""""#]
        var generator = SplitMix64(seed: 20261122)
        for round in 0..<4_000 {
            let choices = round % 2 == 0 ? pieces.count - 1 : pieces.count
            let count = Int(generator.next() % 40)
            let raw = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(choices))] }.joined()
            let expected = specBlockStringValue(raw.replacingOccurrences(of: #"\""""#, with: String(repeating: "\"", count: 3)))
            #expect(try stringValue("\"\"\"" + raw + "\"\"\"") == expected, "raw: \(raw.debugDescription)")
        }
    }

    @Test("§2.1.9 names of 1 to 17 bytes read exactly, inside the source and as its very last bytes")
    func namesOfEveryShortLength() throws {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
        #expect(SmallASCIIString.isVerified, "the inline small-string path is expected on 64-bit targets")
        #endif
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let names = (1...17).map { length in String((0..<length).map { alphabet[($0 * 7 + length) % alphabet.count] }) }
        let document = try Document(parsing: "{ " + names.joined(separator: " ") + " }")
        guard case .operation(let operation) = document.definitions.first else { Issue.record("no operation"); return }
        let read = operation.selectionSet.selections.map { selection -> String in
            guard case .field(let field) = selection else { return "" }
            return field.name.value
        }
        #expect(read == names)
        // Equal strings must behave as equal: hashing, counting, joining.
        #expect(Set(read) == Set(names))
        #expect(read.map(\.utf8.count) == Array(1...17))
        #expect(read.joined(separator: ",") == names.joined(separator: ","))
        for name in names {
            // At the very end of the source the bytes are read one by one, never past the end.
            let last = try Document(parsing: "scalar " + name)
            guard case .type(.scalar(let scalar)) = last.definitions.first else { Issue.record("no scalar"); continue }
            #expect(scalar.name.value == name)
        }
    }

    @Test("§2.1.7 indentation of 0 to 20 spaces after a line feed, then any token or the end, is skipped exactly")
    func indentationRuns() throws {
        // The spaces after a line feed are skipped eight at a time: every run length
        // around and across a word, followed by a name, a punctuator, a string, a
        // comment, a tab, another line feed, or nothing (the run is the source's end).
        for count in 0...20 {
            let indent = "\n" + String(repeating: " ", count: count)
            let text = "{" + indent + "a" + indent + "b(x: 1" + indent + ")" + indent + "c(s:" + indent + "\"v\")"
                + indent + "# note" + indent + "\t d" + indent + indent + "}" + indent
            let document = try Document(parsing: text)
            guard case .operation(let operation) = document.definitions.first else {
                Issue.record("no operation for \(count) spaces")
                continue
            }
            let fields = operation.selectionSet.selections.compactMap { selection -> Field? in
                if case .field(let field) = selection { field } else { nil }
            }
            #expect(fields.map(\.name.value) == ["a", "b", "c", "d"], "\(count) spaces")
            // Ranges count every skipped byte: each name starts right after its run.
            let utf8 = Array(text.utf8)
            for field in fields {
                #expect(utf8[field.name.range.start] == field.name.value.utf8.first, "\(count) spaces")
                #expect(utf8[field.name.range.start - 1] == (field.name.value == "d" ? 0x20 : count == 0 ? 0x0A : 0x20))
            }
            #expect(document.range.end == text.utf8.count - count - 1, "\(count) spaces: the document ends at its last token")
            // A character that starts no token, after the run, is located after it.
            expectSyntaxError(
                "{" + indent + "?}", "Syntax Error: Unexpected character: \"?\".", 2, count + 1)
        }
    }

    @Test("§2.1.7, §2.1.9 the character table: name start, name continue and ignored, for all 256 byte values")
    func characterClasses() {
        for byte in 0...255 {
            let c = UInt8(byte)
            let isLetter = (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
            let isDigit = (0x30...0x39).contains(c)
            #expect(Lexer.isNameStart(c) == (isLetter || c == 0x5F), "byte \(byte)")
            #expect(Lexer.isNameContinue(c) == (isLetter || isDigit || c == 0x5F), "byte \(byte)")
            let isIgnored = [0x20, 0x09, 0x2C, 0x0A, 0x0D].contains(c)
            #expect((Lexer.characterClass(c) & Lexer.ignoredBit != 0) == isIgnored, "byte \(byte)")
        }
    }

    @Test("§2.1.9 names are scanned eight bytes at a time exactly as byte by byte")
    func nameScanWordAtATime() {
        expectWordTest(
            Lexer.nonNameBytes, marks: { !Lexer.isNameContinue($0) },
            edges: [0x2F, 0x30, 0x39, 0x3A, 0x40, 0x41, 0x5A, 0x5B, 0x5E, 0x5F, 0x60, 0x61, 0x7A, 0x7B, 0x7F, 0x80, 0xDF, 0xFF, 0x00, 0x20],
            seed: 7)
    }

    @Test("§2.9.4 string bodies are scanned eight bytes at a time exactly as byte by byte")
    func stringScanWordAtATime() {
        expectWordTest(
            Lexer.stringStopBytes, marks: { [0x22, 0x5C, 0x0A, 0x0D].contains($0) },
            edges: [0x22, 0x5C, 0x0A, 0x0D, 0x21, 0x23, 0x5B, 0x5D, 0x09, 0x0B, 0x0C, 0x0E, 0xA2, 0xDC, 0x8A, 0x8D, 0x00, 0xFF],
            seed: 11)
    }

    /// Checks a word-at-a-time byte test against its byte-at-a-time definition
    /// (`marks`): every byte value in every position among plain letters, then
    /// 20,000 words whose bytes are half random, half taken from `edges`.
    private func expectWordTest(
        _ test: (UInt64) -> UInt64, marks: (UInt8) -> Bool, edges: [UInt8], seed: UInt64,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        func expected(_ x: UInt64) -> UInt64 {
            var mask: UInt64 = 0
            for i in 0..<8 where marks(UInt8(truncatingIfNeeded: x >> (8 * UInt64(i)))) {
                mask |= 0x80 << (8 * UInt64(i))
            }
            return mask
        }
        for byte in 0...255 {
            for position in 0..<8 {
                var x: UInt64 = 0x6161_6161_6161_6161  // "aaaaaaaa"
                x &= ~(0xFF << (8 * UInt64(position)))
                x |= UInt64(byte) << (8 * UInt64(position))
                #expect(test(x) == expected(x), "byte \(byte) at \(position)", sourceLocation: sourceLocation)
            }
        }
        var generator = SplitMix64(seed: seed)
        for _ in 0..<20_000 {
            var x: UInt64 = 0
            for i in 0..<8 {
                let r = generator.next()
                let byte = r & 1 == 0 ? edges[Int((r >> 8) % UInt64(edges.count))] : UInt8(truncatingIfNeeded: r >> 16)
                x |= UInt64(byte) << (8 * UInt64(i))
            }
            #expect(test(x) == expected(x), "word \(String(x, radix: 16))", sourceLocation: sourceLocation)
        }
    }

    @Test("§2.9.4 short strings: plain, escaped, non-ASCII, at the very end of the source")
    func shortStrings() throws {
        #expect(try stringValue(#""""#) == "")
        #expect(try stringValue(#""abc""#) == "abc")
        #expect(try stringValue(#""a\"b""#) == "a\"b")
        #expect(try stringValue(#""é""#) == "é")
        #expect(try stringValue(#""thirteen char""#) == "thirteen char")
        // A document that ends right after a short string: read byte by byte, never past the end.
        let document = try Document(parsing: #"scalar S @d(a: "xyz")"#)
        guard case .type(.scalar(let scalar)) = document.definitions.first,
            case .string(let value) = scalar.directives.first?.arguments.first?.value
        else { Issue.record("no string"); return }
        #expect(value.value == "xyz")
        expectSyntaxError("{ f(a: \"abc\\", #"Syntax Error: Invalid character escape sequence: "\"."#, 1, 12)
        expectSyntaxError("{ f(a: \"abc", "Syntax Error: Unterminated string.", 1, 12)
    }

    @Test("§2.2 words close to a keyword start no definition")
    func nearMissKeywords() {
        for word in ["types", "inputs", "enumz", "scalarr", "schemas", "Query", "subscriptio", "fragments", "directives", "unions", "interfac", "extends"] {
            expectSyntaxError("\(word) X { a }", "Syntax Error: Unexpected Name \"\(word)\".", 1, 1)
        }
        expectSyntaxError("extend types X { a }", "Syntax Error: Unexpected Name \"types\".", 1, 8)
    }

    @Test("§2.1.1 characters that start no token are rejected with their code point")
    func unexpectedCharacters() {
        expectSyntaxError("{ a ? }", "Syntax Error: Unexpected character: \"?\".", 1, 5)
        expectSyntaxError("{ a \u{7} }", "Syntax Error: Unexpected character: U+0007.", 1, 5)
        expectSyntaxError("{ é }", "Syntax Error: Unexpected character: U+00E9.", 1, 3)
        expectSyntaxError("{ a(b: 'c') }", "Syntax Error: Unexpected single quote character ('), did you mean to use a double quote (\")?", 1, 8)
        expectSyntaxError("{ .. }", "Syntax Error: Unexpected character: \".\".", 1, 3)
    }

    @Test("§2.1.2 invalid UTF-8 is rejected with the offending byte's location")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("{\n  a ".utf8) + [0xC3, 0x28] + Array(" }".utf8)
        #expect {
            try Source(bytes: bytes)
        } throws: { error in
            guard let error = error as? GraphQLSyntaxError else { return false }
            return error.message == "Syntax Error: Invalid UTF-8 byte 0xC3." && error.location == .init(line: 2, column: 5)
        }
        // Overlong encodings and encoded surrogates are not UTF-8 either.
        #expect(throws: GraphQLSyntaxError.self) { try Source(bytes: [0xC0, 0xAF]) }
        #expect(throws: GraphQLSyntaxError.self) { try Source(bytes: [0xED, 0xA0, 0x80]) }
        #expect(throws: GraphQLSyntaxError.self) { try Source(bytes: [0xF4, 0x90, 0x80, 0x80]) }
        #expect(throws: Never.self) { try Source(bytes: Array("é😀".utf8)) }
    }
}

/// BlockStringValue(rawValue) as §2.9.4 writes it, line by line on strings: the
/// reference the lexer's byte-level implementation is checked against.
private func specBlockStringValue(_ raw: String) -> String {
    var lines = raw.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func indent(_ line: String) -> Int { line.prefix { $0 == " " || $0 == "\t" }.count }
    func isBlank(_ line: String) -> Bool { indent(line) == line.count }
    var common: Int?
    for line in lines.dropFirst() where !isBlank(line) {
        if common == nil || indent(line) < common! { common = indent(line) }
    }
    if let common {
        for i in lines.indices.dropFirst() { lines[i] = String(lines[i].dropFirst(common)) }
    }
    while let first = lines.first, isBlank(first) { lines.removeFirst() }
    while let last = lines.last, isBlank(last) { lines.removeLast() }
    return lines.joined(separator: "\n")
}

/// A small deterministic generator, so a failure can be replayed.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
