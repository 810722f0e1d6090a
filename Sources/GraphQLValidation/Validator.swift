import GraphQLEngine
import GraphQLLanguage

/// Limits on top of the specified rules, each off or generous by default.
///
/// ```swift
/// let options = ValidationOptions(maxDepth: 10, maxFieldCount: 5_000, maxAliases: 30)
/// ```
public struct ValidationOptions: Sendable {
    /// Stop after this many errors and append graphql-js's "Too many validation errors,
    /// error limit reached. Validation aborted." (default 100, as graphql-js).
    public var maxErrors: Int = 100
    /// Deepest allowed nesting of selection sets, counted through fragments
    /// (`{ a { b } }` has depth 2); nil = off. Error code `QUERY_TOO_DEEP`.
    public var maxDepth: Int? = nil
    /// Most fields an operation's answer could hold (see ``MaxFieldCountRule``: 1 per field, a
    /// field with a `first` or `last` argument multiplies its subtree by it); nil = off. Error code
    /// `QUERY_TOO_COMPLEX`. Not the gateway's cost (`MAX_COST`, priced from the schema's cost
    /// directives): two cost models, so two names (issue 55).
    public var maxFieldCount: Int? = nil
    /// Most aliased fields an operation may select, counted through fragments; nil = off.
    /// Error code `TOO_MANY_ALIASES`.
    public var maxAliases: Int? = nil

    public init(maxErrors: Int = 100, maxDepth: Int? = nil, maxFieldCount: Int? = nil, maxAliases: Int? = nil) {
        self.maxErrors = maxErrors
        self.maxDepth = maxDepth
        self.maxFieldCount = maxFieldCount
        self.maxAliases = maxAliases
    }
}

/// Validates executable documents against a schema (§5).
///
/// ```swift
/// let errors = Validator.validate(schema: schema, document: document, source: source)
/// guard errors.isEmpty else { return .errors(errors) }
/// ```
public enum Validator {
    /// Runs all specified rules (in spec order, see ``SpecifiedRules``) plus the enabled
    /// guards, in one traversal of the document.
    ///
    /// - Parameters:
    ///   - schema: The schema the document must be valid against.
    ///   - document: The parsed document.
    ///   - source: The document's source, to turn positions into line and column
    ///     (nil: errors carry no locations).
    ///   - options: Error limit and the depth, cost and alias guards.
    /// - Returns: The errors in document order, empty if the document is valid. Spec
    ///   errors carry `extensions.code` `GRAPHQL_VALIDATION_FAILED`.
    public static func validate(
        schema: GraphQLSchema, document: Document, source: Source?, options: ValidationOptions = .init()
    ) -> [GraphQLError] {
        let context = ValidationContext(schema: schema, document: document, source: source, options: options)
        var rules = SpecifiedRules.all.map { $0.rule.init(context: context) }
        if options.maxDepth != nil { rules.append(MaxDepthRule(context: context)) }
        if options.maxFieldCount != nil { rules.append(MaxFieldCountRule(context: context)) }
        if options.maxAliases != nil { rules.append(MaxAliasesRule(context: context)) }
        DocumentWalker(context: context, rules: rules).walk(document)
        return context.errors
    }
}
