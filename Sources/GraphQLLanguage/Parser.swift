/// A recursive-descent parser for the grammar of Appendix C, pulling tokens
/// from a ``Lexer``. One parse = one `Parser` value on the stack; see
/// `Parser+Operations.swift`, `Parser+Values.swift` and `Parser+TypeSystem.swift`
/// for the productions. Error wording follows graphql-js.
struct Parser {
    var lexer: Lexer
    let options: ParseOptions
    /// Current nesting, bounded by ``ParseOptions/maxDepth``.
    var depth = 0
    /// Scratch stacks for lists being built: a list's items are appended here and
    /// copied out once, at their exact size, instead of growing an array 1, 2, 4, 8...
    /// Nested lists push above their parent's items and pop before it resumes.
    /// Borrowed from a pooled ``ParserWorkspace`` for the length of the parse.
    let scratch: ParserScratch

    /// Runs `body` with a parser over `source`'s UTF-8 bytes, positioned on the first token.
    static func run<T>(
        _ source: Source, _ options: ParseOptions,
        _ body: (inout Parser) throws(GraphQLSyntaxError) -> T
    ) throws(GraphQLSyntaxError) -> T {
        var text = source.body
        var result: Result<T, GraphQLSyntaxError>!
        let workspace = ParserWorkspacePool.take()
        defer { ParserWorkspacePool.give(workspace) }
        text.withUTF8 { bytes in
            result = Result { () throws(GraphQLSyntaxError) -> T in
                var parser = Parser(
                    lexer: Lexer(bytes: bytes, source: source, maxTokens: options.maxTokens, strings: workspace.strings),
                    options: options, scratch: workspace.scratch)
                try parser.lexer.advance()
                return try body(&parser)
            }
        }
        return try result.get()
    }

    // MARK: - Document

    /// `Document : Definition+`
    mutating func parseDocument() throws(GraphQLSyntaxError) -> Document {
        let start = lexer.token.start
        let stack = scratch.definitions
        let base = stack.count
        repeat {
            stack.push(try parseDefinition())
        } while lexer.token.kind != .eof
        return Document(definitions: stack.pop(from: base), range: range(from: start))
    }

    /// `Definition : ExecutableDefinition | TypeSystemDefinitionOrExtension`
    mutating func parseDefinition() throws(GraphQLSyntaxError) -> Definition {
        if peek(.braceL) {
            return .operation(try parseOperationDefinition())
        }
        let hasDescription = peekDescription()
        let keyword = hasDescription ? try lexer.lookahead() : lexer.token
        if hasDescription && keyword.kind == .braceL {
            throw lexer.error(
                at: lexer.token.start, "Unexpected description, descriptions are not supported on shorthand queries.")
        }
        switch definitionKeyword(keyword) {
        case .operation: return .operation(try parseOperationDefinition())
        case .fragment: return .fragment(try parseFragmentDefinition())
        case .type(let typeKeyword): return .type(try parseTypeDefinition(typeKeyword))
        case .schema: return .schema(try parseSchemaDefinition())
        case .directive: return .directive(try parseDirectiveDefinition())
        case .extend:
            if hasDescription {
                throw lexer.error(
                    at: lexer.token.start, "Unexpected description, descriptions are not supported on type extensions.")
            }
            return try parseTypeSystemExtension()
        case nil: break
        }
        throw unexpected(keyword)
    }

    // MARK: - Token helpers

    @inline(__always)
    func peek(_ kind: TokenKind) -> Bool { lexer.token.kind == kind }

    @inline(__always)
    func peekDescription() -> Bool { lexer.token.kind == .string || lexer.token.kind == .blockString }

    /// Consumes a token of `kind`, or fails with "Expected X, found Y."
    @discardableResult @inline(__always)
    mutating func expect(_ kind: TokenKind) throws(GraphQLSyntaxError) -> Token {
        let token = lexer.token
        guard token.kind == kind else { throw expected(kind) }
        try lexer.advance()
        return token
    }

    /// "Expected X, found Y." at the current token.
    @inline(never)
    func expected(_ kind: TokenKind) -> GraphQLSyntaxError {
        lexer.error(at: lexer.token.start, "Expected \(kind.description), found \(describe(lexer.token)).")
    }

    /// Consumes a token of `kind` if it is the current one.
    @inline(__always)
    mutating func expectOptional(_ kind: TokenKind) throws(GraphQLSyntaxError) -> Bool {
        guard lexer.token.kind == kind else { return false }
        try lexer.advance()
        return true
    }

    /// Whether the current token is the name `keyword`.
    @inline(__always)
    func peekKeyword(_ keyword: StaticString) -> Bool { isKeyword(lexer.token, keyword) }

    /// Whether `token` is the name `keyword`, compared in place (no `String` made).
    ///
    /// Inlined: the keyword is a literal at every call, so its length is a constant
    /// and the comparison unrolls to a word compare or two (a call with a byte loop
    /// cost ~30 instructions, on every keyword test).
    @inline(__always)
    func isKeyword(_ token: Token, _ keyword: StaticString) -> Bool {
        let count = keyword.utf8CodeUnitCount
        guard token.kind == .name, token.end - token.start == count else { return false }
        let text = UnsafeRawPointer(lexer.bytes.baseAddress.unsafelyUnwrapped + token.start)
        let word = UnsafeRawPointer(keyword.utf8Start)
        var i = 0
        while i + 8 <= count {
            if text.loadUnaligned(fromByteOffset: i, as: UInt64.self) != word.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                return false
            }
            i += 8
        }
        while i < count {
            if text.load(fromByteOffset: i, as: UInt8.self) != word.load(fromByteOffset: i, as: UInt8.self) { return false }
            i += 1
        }
        return true
    }

    /// The type keyword `token` is, if any: `scalar`, `type`, `interface`, `union`,
    /// `enum`, `input` (after `extend`; a definition's keyword is classified once,
    /// by ``definitionKeyword(_:)``, which this reads).
    func typeKeyword(_ token: Token) -> TypeKeyword? {
        if case .type(let keyword) = definitionKeyword(token) { return keyword }
        return nil
    }

    /// What a definition starting with `token` is, by its keyword (§2.2, §3.1).
    ///
    /// One switch on length and first letter for all thirteen keywords, then one
    /// comparison; a type keyword is returned as found, so the type definition does
    /// not classify it again.
    func definitionKeyword(_ token: Token) -> DefinitionKeyword? {
        guard token.kind == .name else { return nil }
        switch (token.end - token.start, lexer.bytes[token.start]) {
        case (4, UInt8(ascii: "t")): return isKeyword(token, "type") ? .type(.type) : nil
        case (5, UInt8(ascii: "i")): return isKeyword(token, "input") ? .type(.input) : nil
        case (4, UInt8(ascii: "e")): return isKeyword(token, "enum") ? .type(.enum) : nil
        case (9, UInt8(ascii: "i")): return isKeyword(token, "interface") ? .type(.interface) : nil
        case (6, UInt8(ascii: "s")):
            if isKeyword(token, "scalar") { return .type(.scalar) }
            return isKeyword(token, "schema") ? .schema : nil
        case (5, UInt8(ascii: "u")): return isKeyword(token, "union") ? .type(.union) : nil
        case (5, UInt8(ascii: "q")): return isKeyword(token, "query") ? .operation : nil
        case (8, UInt8(ascii: "m")): return isKeyword(token, "mutation") ? .operation : nil
        case (12, UInt8(ascii: "s")): return isKeyword(token, "subscription") ? .operation : nil
        case (8, UInt8(ascii: "f")): return isKeyword(token, "fragment") ? .fragment : nil
        case (9, UInt8(ascii: "d")): return isKeyword(token, "directive") ? .directive : nil
        case (6, UInt8(ascii: "e")): return isKeyword(token, "extend") ? .extend : nil
        default: return nil
        }
    }

    /// Consumes the name `keyword`, or fails with `Expected "keyword", found Y.`
    ///
    /// Inlined, with the error made out of line: the keyword is then a constant at
    /// each call, and the message's string building stays off the path taken.
    @inline(__always)
    mutating func expectKeyword(_ keyword: StaticString) throws(GraphQLSyntaxError) {
        guard peekKeyword(keyword) else { throw expectedKeyword(keyword) }
        try lexer.advance()
    }

    /// "Expected "keyword", found Y." at the current token.
    @inline(never)
    func expectedKeyword(_ keyword: StaticString) -> GraphQLSyntaxError {
        lexer.error(at: lexer.token.start, "Expected \"\(keyword)\", found \(describe(lexer.token)).")
    }

    /// Consumes the name `keyword` if it is the current token.
    @inline(__always)
    mutating func expectOptionalKeyword(_ keyword: StaticString) throws(GraphQLSyntaxError) -> Bool {
        guard peekKeyword(keyword) else { return false }
        try lexer.advance()
        return true
    }

    /// "Unexpected Y." at `token` (default: the current token).
    @inline(never)
    func unexpected(_ token: Token? = nil) -> GraphQLSyntaxError {
        let token = token ?? lexer.token
        return lexer.error(at: token.start, "Unexpected \(describe(token)).")
    }

    /// A token as graphql-js describes it: `"{"`, `Name "foo"`, `Int "1"`, `<EOF>`.
    func describe(_ token: Token) -> String {
        switch token.kind {
        case .name, .int, .float: return "\(token.kind.description) \"\(lexer.text(token.start, token.end))\""
        case .string, .blockString: return "\(token.kind.description) \"\(lexer.stringValue(of: token))\""
        default: return token.kind.description
        }
    }


    /// `Name` as an AST node.
    @inline(__always)
    mutating func parseName() throws(GraphQLSyntaxError) -> Name {
        let token = try expect(.name)
        let value = lexer.ascii(token)
        return Name(value, range: options.noLocation ? .none : SourceRange(start: token.start, end: token.end))
    }

    /// A name as the nodes that pack it store it: its value and its start
    /// (see ``Name/packedStart(of:)``).
    @inline(__always)
    mutating func parsePackedName() throws(GraphQLSyntaxError) -> (value: String, start: UInt32) {
        let token = try expect(.name)
        return (lexer.ascii(token), options.noLocation ? UInt32.max : UInt32(truncatingIfNeeded: token.start))
    }

    /// The range from `start` to the end of the last consumed token.
    @inline(__always)
    func range(from start: Int) -> SourceRange {
        options.noLocation ? .none : SourceRange(start: start, end: lexer.lastEnd)
    }

    /// Items up to and including the `close` token, built on `stack` and moved
    /// out at their exact size (see ``ScratchStack``).
    @inline(__always)
    mutating func parseList<T>(
        _ stack: ScratchStack<T>, until close: TokenKind, _ item: (inout Parser) throws(GraphQLSyntaxError) -> T
    ) throws(GraphQLSyntaxError) -> [T] {
        let base = stack.count
        repeat {
            stack.push(try item(&self))
        } while try !expectOptional(close)
        return stack.pop(from: base)
    }

    /// Enters one nesting level (`{`, `[`), enforcing ``ParseOptions/maxDepth``.
    @inline(__always)
    mutating func enterNesting() throws(GraphQLSyntaxError) {
        depth += 1
        if depth > options.maxDepth {
            throw lexer.error(
                at: lexer.token.start, "Document is nested more than \(options.maxDepth) levels deep. Parsing aborted.")
        }
    }
}

/// The keywords that start a type definition or extension (§3.4).
enum TypeKeyword {
    case scalar, type, interface, union, `enum`, input
}

/// The kinds of definition a document's keywords start (§2.2 Definition).
enum DefinitionKeyword {
    /// `query`, `mutation` or `subscription`.
    case operation
    case fragment
    /// A type keyword, which one.
    case type(TypeKeyword)
    case schema
    case directive
    case extend
}
