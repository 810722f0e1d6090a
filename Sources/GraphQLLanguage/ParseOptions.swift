/// Limits and switches for ``Document/init(parsing:options:)``.
///
/// The limits exist so hostile input costs a bounded amount of work and stack:
/// a recursive-descent parser would otherwise overflow the stack on 100,000
/// nested `{`. Both limits raise a ``GraphQLSyntaxError``.
public struct ParseOptions: Sendable, Hashable {
    /// The most non-ignored tokens a document may have. Default 1,000,000
    /// (a 1 MB query has about 150,000). The gateway sets a much lower limit for requests.
    public var maxTokens: Int
    /// The deepest nesting of selection sets, list and object values and list
    /// types. Default 256, far beyond any real query, far below the stack's limit.
    public var maxDepth: Int
    /// Do not record source ranges (every node gets ``SourceRange/none``): a little
    /// faster, and makes equal documents compare equal whatever their layout.
    public var noLocation: Bool

    public init(maxTokens: Int = 1_000_000, maxDepth: Int = 256, noLocation: Bool = false) {
        self.maxTokens = maxTokens
        self.maxDepth = maxDepth
        self.noLocation = noLocation
    }
}

extension Document {
    /// Parses a GraphQL document (§2.2): any mix of executable and type-system
    /// definitions and extensions.
    ///
    /// ```swift
    /// let document = try Document(parsing: "query Q { viewer { handle } }")
    /// ```
    /// - Throws: ``GraphQLSyntaxError`` for the first syntax error, or a broken limit.
    public init(parsing source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLSyntaxError) {
        self = try Parser.run(source, options) { (parser) throws(GraphQLSyntaxError) in try parser.parseDocument() }
    }

    /// Parses a GraphQL document from a string; see ``init(parsing:options:)-(Source,_)``.
    public init(parsing text: String, options: ParseOptions = ParseOptions()) throws(GraphQLSyntaxError) {
        try self.init(parsing: Source(text), options: options)
    }
}

extension Value {
    /// Parses a single value literal, such as a default value: `{a: [1, 2]}`.
    /// - Throws: ``GraphQLSyntaxError``.
    public init(parsing text: String, const: Bool = false, options: ParseOptions = ParseOptions()) throws(GraphQLSyntaxError) {
        self = try Parser.run(Source(text), options) { (parser) throws(GraphQLSyntaxError) in
            let value = try parser.parseValue(const: const)
            _ = try parser.expect(.eof)
            return value
        }
    }
}

extension TypeReference {
    /// Parses a type reference such as `[String!]!`.
    /// - Throws: ``GraphQLSyntaxError``.
    public init(parsing text: String, options: ParseOptions = ParseOptions()) throws(GraphQLSyntaxError) {
        self = try Parser.run(Source(text), options) { (parser) throws(GraphQLSyntaxError) in
            let type = try parser.parseTypeReference()
            _ = try parser.expect(.eof)
            return type
        }
    }
}
