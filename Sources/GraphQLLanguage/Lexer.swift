/// Turns UTF-8 bytes into GraphQL tokens (§2.1), one token at a time.
///
/// The parser pulls tokens on demand; nothing is buffered, so memory stays
/// proportional to the AST, not to the token count. Ignored tokens (§2.1.7:
/// BOM, whitespace, line terminators, comments, commas) are skipped here.
/// Positions are UTF-8 byte offsets. Error messages follow graphql-js.
struct Lexer {
    let bytes: UnsafeBufferPointer<UInt8>
    let source: Source
    let maxTokens: Int
    /// Long names and string literals already read in this document.
    let strings: StringTable
    /// The next byte to read.
    var position: Int
    /// The current token.
    var token: Token
    /// The end of the previous token, used for node ranges.
    var lastEnd: Int = 0
    /// Non-ignored tokens read so far, for ``ParseOptions/maxTokens``.
    var tokenCount = 0
    /// The cooked value of the last string token read (escapes resolved, block
    /// indentation removed).
    var stringValue = ""
    /// ``SmallASCIIString/isVerified``, read once here rather than through the
    /// global's once-token on every name.
    let makesSmallStringsDirectly = SmallASCIIString.isVerified

    init(bytes: UnsafeBufferPointer<UInt8>, source: Source, maxTokens: Int, strings: StringTable) {
        self.bytes = bytes
        self.source = source
        self.maxTokens = maxTokens
        self.strings = strings
        self.position = 0
        self.token = Token(kind: .eof, start: 0, end: 0)
    }

    /// Moves to the next token.
    @inline(__always)
    mutating func advance() throws(GraphQLSyntaxError) {
        lastEnd = token.end
        token = try readToken()
    }

    /// The token after the current one, without moving.
    ///
    /// Saves and restores the three fields reading a token changes, rather than
    /// copying the lexer (which would retain and release each of its references).
    mutating func lookahead() throws(GraphQLSyntaxError) -> Token {
        let savedPosition = position
        let savedCount = tokenCount
        let savedValue = stringValue
        defer {
            position = savedPosition
            tokenCount = savedCount
            stringValue = savedValue
        }
        return try readToken()
    }

    /// The cooked value of any string token, read again from the source (for messages).
    func stringValue(of token: Token) -> String {
        var copy = self
        copy.position = token.start
        copy.tokenCount = 0
        guard (try? copy.readToken()) != nil else { return "" }
        return copy.stringValue
    }

    // MARK: - Reading tokens

    mutating func readToken() throws(GraphQLSyntaxError) -> Token {
        let n = bytes.count
        var p = position
        while p < n {
            let c = bytes[p]
            let characterClass = Lexer.characterClass(c)
            // Names first: the most common token, then ignored characters; both
            // decided by one table load rather than the jump table below.
            if characterClass & Lexer.nameStartBit != 0 {
                try countToken(at: p)
                let e = nameEnd(from: p + 1)
                position = e
                return Token(kind: .name, start: p, end: e)
            }
            if characterClass & Lexer.ignoredBit != 0 {  // space, tab, comma, line terminators
                // After a line feed comes the indentation; elsewhere a single
                // space is the rule, and the byte loop is cheaper for it.
                p = c == 0x0A ? spacesEnd(from: p + 1) : p + 1
                continue
            }
            switch c {
            case 0xEF where p + 2 < n && bytes[p + 1] == 0xBB && bytes[p + 2] == 0xBF:  // BOM
                p += 3
                continue
            case 0x23:  // # comment to end of line
                p += 1
                while p < n, bytes[p] != 0x0A, bytes[p] != 0x0D { p += 1 }
                continue
            default:
                break
            }
            try countToken(at: p)
            switch c {
            case 0x21: return punctuator(.bang, p)
            case 0x24: return punctuator(.dollar, p)
            case 0x26: return punctuator(.amp, p)
            case 0x28: return punctuator(.parenL, p)
            case 0x29: return punctuator(.parenR, p)
            case 0x3A: return punctuator(.colon, p)
            case 0x3D: return punctuator(.equals, p)
            case 0x40: return punctuator(.at, p)
            case 0x5B: return punctuator(.bracketL, p)
            case 0x5D: return punctuator(.bracketR, p)
            case 0x7B: return punctuator(.braceL, p)
            case 0x7C: return punctuator(.pipe, p)
            case 0x7D: return punctuator(.braceR, p)
            case 0x2E:
                if p + 2 < n, bytes[p + 1] == 0x2E, bytes[p + 2] == 0x2E {
                    position = p + 3
                    return Token(kind: .spread, start: p, end: p + 3)
                }
            case 0x22:
                return try readString(start: p)
            case 0x2D, 0x30...0x39:
                return try readNumber(start: p)
            default:
                break
            }
            throw unexpectedCharacter(at: p)
        }
        position = n
        return Token(kind: .eof, start: n, end: n)
    }

    @inline(__always)
    private mutating func punctuator(_ kind: TokenKind, _ p: Int) -> Token {
        position = p + 1
        return Token(kind: kind, start: p, end: p + 1)
    }

    @inline(__always)
    private mutating func countToken(at p: Int) throws(GraphQLSyntaxError) {
        tokenCount += 1
        if tokenCount > maxTokens { throw tooManyTokens(at: p) }
    }

    // Errors are made out of line: their messages inline string building into the
    // token loop, and its larger stack frame was paid on every token.

    /// "Unexpected character" (or single quote) at `p`.
    @inline(never)
    func unexpectedCharacter(at p: Int) -> GraphQLSyntaxError {
        if bytes[p] == 0x27 {
            return error(at: p, "Unexpected single quote character ('), did you mean to use a double quote (\")?")
        }
        return error(at: p, "Unexpected character: \(describeCharacter(at: p)).")
    }

    /// The ``ParseOptions/maxTokens`` limit was passed at `p`.
    @inline(never)
    func tooManyTokens(at p: Int) -> GraphQLSyntaxError {
        error(at: p, "Document contains more than \(maxTokens) tokens. Parsing aborted.")
    }

    // MARK: - Character classes

    /// One character per byte value, its bits: 1 NameContinue (letters, digits,
    /// `_`), 2 NameStart (letters, `_`), 4 ignored (space, tab, comma, `\n`, `\r`;
    /// §2.1.7). A table load replaces a chain of range compares in the loops that
    /// read names, the most common token, and skip white space.
    private static var characterClasses: StaticString { "0000000004400400000000000000000040000000000040001111111111000000033333333333333333333333333000030333333333333333333333333330000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" }

    static let nameContinueBit: UInt8 = 1
    static let nameStartBit: UInt8 = 2
    static let ignoredBit: UInt8 = 4

    /// The bits of `c` (see ``characterClasses``), as a number.
    @inline(__always)
    static func characterClass(_ c: UInt8) -> UInt8 {
        characterClasses.utf8Start[Int(c)] &- 0x30
    }

    @inline(__always)
    static func isNameStart(_ c: UInt8) -> Bool {
        characterClass(c) & nameStartBit != 0
    }

    @inline(__always)
    static func isNameContinue(_ c: UInt8) -> Bool {
        characterClass(c) & nameContinueBit != 0
    }

    /// The end of the name whose remaining characters start at `start` (see
    /// ``runEnd(from:stops:continues:)``). Names are over half of a typical document's
    /// bytes, and a loop that stops at an unpredictable length costs a mispredicted
    /// branch per name.
    @inline(__always)
    func nameEnd(from start: Int) -> Int {
        runEnd(from: start, stops: Lexer.nonNameBytes, continues: Lexer.isNameContinue)
    }

    /// The end of the run of spaces (U+0020) starting at `start`; `start` itself if
    /// there is none.
    ///
    /// Indentation is most of a formatted document's ignored characters: after a
    /// line feed come as many spaces as the nesting is deep. Stepping over them
    /// one table load at a time cost a loop iteration per space and a mispredicted
    /// exit per run.
    @inline(__always)
    func spacesEnd(from start: Int) -> Int {
        // Zero in every byte that is a space: the first non-zero byte ends the run.
        runEnd(from: start, stops: { $0 ^ 0x2020_2020_2020_2020 }, continues: { $0 == 0x20 })
    }

    /// The end of a run of bytes starting at `start`, eight bytes at a time, then
    /// byte by byte near the end of the source (never reading past it).
    ///
    /// `stops` takes eight bytes read little-endian and is non-zero from the first
    /// byte that ends the run on (its lowest set bit lies in that byte); `continues`
    /// is the same test on one byte.
    @inline(__always)
    func runEnd(from start: Int, stops: (UInt64) -> UInt64, continues: (UInt8) -> Bool) -> Int {
        let n = bytes.count
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        var e = start
        while e + 8 <= n {
            let stop = stops(base.loadUnaligned(fromByteOffset: e, as: UInt64.self))
            if stop != 0 { return e + stop.trailingZeroBitCount >> 3 }
            e += 8
        }
        while e < n, continues(bytes[e]) { e += 1 }
        return e
    }

    /// For eight bytes read little-endian, the high bit of each byte that is not
    /// NameContinue (`[A-Za-z0-9_]`, §2.1.9), computed on all eight at once: range
    /// tests by adding to bytes whose high bit was cleared first, so no byte
    /// carries into the next; bytes of 0x80 and above are never name characters.
    @inline(__always)
    static func nonNameBytes(_ x: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let ascii = x & ~high
        /// High bit set in each byte within `lo...hi` (bytes of `v` below 0x80).
        @inline(__always) func within(_ v: UInt64, _ lo: UInt64, _ hi: UInt64) -> UInt64 {
            (v &+ ones &* (0x80 - lo)) & ~(v &+ ones &* (0x7F - hi)) & high
        }
        let letter = within(ascii | ones &* 0x20, 0x61, 0x7A)  // A-Z folded onto a-z
        let digit = within(ascii, 0x30, 0x39)
        let notUnderscore = ascii ^ ones &* 0x5F  // zero where the byte is `_`
        let underscore = ~((notUnderscore &+ ones &* 0x7F) | notUnderscore) & high
        let name = (letter | digit | underscore) & ~(x & high)
        return ~name & high
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    // MARK: - Errors

    /// A syntax error at a byte offset, with the line and column computed now.
    func error(at offset: Int, _ message: String) -> GraphQLSyntaxError {
        GraphQLSyntaxError(message: "Syntax Error: " + message, offset: offset, location: source.location(of: offset))
    }

    /// The character at `offset` as graphql-js prints it: `"a"`, `'"'`, `U+00E9`, `<EOF>`.
    func describeCharacter(at offset: Int) -> String {
        guard offset < bytes.count else { return "<EOF>" }
        let scalar = scalarValue(at: offset)
        if scalar >= 0x20 && scalar <= 0x7E {
            let character = String(UnicodeScalar(UInt8(scalar)))
            return character == "\"" ? "'\"'" : "\"\(character)\""
        }
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The Unicode scalar starting at `offset` (the source is valid UTF-8).
    func scalarValue(at offset: Int) -> UInt32 {
        let b0 = UInt32(bytes[offset])
        func cont(_ k: Int) -> UInt32 { offset + k < bytes.count ? UInt32(bytes[offset + k] & 0x3F) : 0 }
        switch b0 {
        case 0..<0x80: return b0
        case 0xC0..<0xE0: return (b0 & 0x1F) << 6 | cont(1)
        case 0xE0..<0xF0: return (b0 & 0x0F) << 12 | cont(1) << 6 | cont(2)
        default: return (b0 & 0x07) << 18 | cont(1) << 12 | cont(2) << 6 | cont(3)
        }
    }

    /// The byte length of the UTF-8 sequence starting with `byte`.
    static func scalarLength(_ byte: UInt8) -> Int {
        switch byte {
        case 0..<0xC0: return 1
        case 0xC0..<0xE0: return 2
        case 0xE0..<0xF0: return 3
        default: return 4
        }
    }

    /// The text of a name or number token (always ASCII).
    ///
    /// Up to 15 bytes this is a small (inline) string written directly
    /// (``SmallASCIIString``); longer ones are shared through ``strings``, made once
    /// by copying straight into the new string's storage.
    @inline(__always)
    func ascii(_ token: Token) -> String {
        let count = token.end - token.start
        let base = bytes.baseAddress.unsafelyUnwrapped + token.start
        @inline(__always) func make() -> String {
            String(unsafeUninitializedCapacity: count) { buffer in
                buffer.baseAddress.unsafelyUnwrapped.initialize(from: base, count: count)
                return count
            }
        }
        if count < StringTable.minimumCount {
            return makesSmallStringsDirectly ? SmallASCIIString.make(bytes, token.start, count: count) : make()
        }
        var hash: UInt32 = 0
        var slot = 0
        if let shared = strings.lookup(bytes, token.start, token.end, hash: &hash, slot: &slot) { return shared }
        let value = make()
        strings.insert(value, token.start, token.end, hash: hash, slot: slot)
        return value
    }

    /// The source text of a byte range, cut at scalar boundaries.
    func text(_ start: Int, _ end: Int) -> String {
        var e = min(end, bytes.count)
        while e < bytes.count, bytes[e] & 0xC0 == 0x80 { e += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<e]), as: UTF8.self)
    }
}
