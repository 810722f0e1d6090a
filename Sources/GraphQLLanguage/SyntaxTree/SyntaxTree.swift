/// A parsed GraphQL document as the parser writes it: every node a plain record
/// in one block of memory, read through value-type views (``DefinitionSyntax``,
/// ``FieldSyntax``, ...).
///
/// Parsing into a syntax tree allocates one region for the nodes and one string
/// per string literal; a ``Document`` (the AST of separate values the rest of the
/// engine reads) allocates an array per list and a string per long name, and
/// costs about as much again to build and to free. Use a tree where the text is
/// only checked or walked once; ``Document/init(parsing:options:)`` parses into
/// one and builds the ``Document`` from it.
///
/// ```swift
/// let tree = try SyntaxTree(parsing: Source("{ viewer { handle } }"))
/// for case .operation(let operation) in tree.definitions { print(operation.selectionSet.selections.count) }
/// ```
///
/// A tree is immutable and keeps its ``source``; views keep their tree alive.
public final class SyntaxTree: @unchecked Sendable {
    // @unchecked: the region is written by the parse that makes the tree and only
    // read afterwards; the tree owns it and frees it in `deinit`.
    public let source: Source
    let region: RecordRegion
    /// The cooked values of the string literals, by index (``ValueRecord``).
    let strings: [String]
    let definitionList: ListRef
    let documentStart: UInt32
    let documentEnd: UInt32

    /// Parses `source` (§2.2 Document): any mix of executable and type-system
    /// definitions and extensions.
    /// - Throws: ``GraphQLSyntaxError`` for the first syntax error, or a broken limit
    ///   of `options` (``ParseOptions/noLocation`` does not apply: a tree always has its ranges).
    public convenience init(parsing source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLSyntaxError) {
        let output = try Parser.run(source, options) { (parser) throws(GraphQLSyntaxError) -> (ListRef, UInt32, UInt32) in
            let start = parser.start
            let definitions = try parser.parseDocument()
            return (definitions, start, parser.end)
        }
        self.init(
            source: source, region: output.region, strings: output.strings, definitions: output.result.0,
            start: output.result.1, end: output.result.2)
    }

    init(source: Source, region: RecordRegion, strings: [String], definitions: ListRef, start: UInt32, end: UInt32) {
        self.source = source
        self.region = region
        self.strings = strings
        self.definitionList = definitions
        self.documentStart = start
        self.documentEnd = end
    }

    deinit { region.free() }

    /// The document's definitions, in source order.
    public var definitions: SyntaxList<DefinitionSyntax> { SyntaxList(self, definitionList) }

    /// From the first token to the end of the last.
    public var range: SourceRange { SourceRange(start: Int(documentStart), end: Int(documentEnd)) }

    /// Bytes the nodes take (the region's used part), for memory measurements.
    public var nodeBytes: Int { region.used }

    /// The source text of `start..<end`, which lies on character boundaries.
    func text(_ start: Int, _ end: Int) -> String {
        var body = source.body
        return body.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }
}
