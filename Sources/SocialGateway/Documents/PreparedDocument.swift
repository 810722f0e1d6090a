import GraphQLEngine
import GraphQLLanguage
import GraphQLValidation

/// A request document after everything that depends only on its text: parsed, validated,
/// printed canonically and with the cache policy of each of its queries.
///
/// None of this depends on who asks, on the variables or on the data, so one
/// ``PreparedDocumentStore`` entry serves every later request with the same text (Apollo
/// Server keeps parsed and validated documents in its "document store" for the same reason).
/// Repeated queries, the common case for web and mobile clients, then skip parsing,
/// validation, printing and the cache-policy walk: a cache hit costs one key digest and one
/// cache read.
final class PreparedDocument: Sendable {
    let source: Source
    let document: Document
    /// Execution plans of this document kept between its requests (``GraphQLEngine/ExecutionPlans``).
    let plans = ExecutionPlans()
    /// The document's operations, in order (looked up on every request).
    let operations: [OperationDefinition]
    /// The validation errors (§5); empty when the document is valid.
    let errors: [GraphQLError]
    /// The first `__schema` or `__type` selection, for servers with introspection off.
    let introspectionUse: SourceRange?
    /// Whether the document has a `@defer` or `@stream` (an incremental answer is worth negotiating).
    let usesIncrementalDelivery: Bool
    /// The document printed canonically: the cache-key part that makes whitespace and
    /// comments irrelevant. Nil for invalid documents, which are never cached.
    let printed: String?
    /// The cache policy of each query operation, by operation name (nil for an anonymous one).
    let queryPolicies: [String?: CachePolicy]
    /// The query operations whose signed-in answers viewers with the same relation share, by
    /// operation name (``SharedCardShape``).
    let sharedCards: [String?: SharedCardShape]
    /// The text's size, for the store's memory budget.
    let textBytes: Int
    /// The document's fragments by name (for pricing).
    let fragments: [String: FragmentDefinition]
    /// The estimated cost of each operation whose price does not depend on its variables, by
    /// operation name (nil for an anonymous one); the others are priced per request.
    let staticCosts: [String?: Int]
    /// For the other operations, the variables their price reads (sorted), by operation name:
    /// the key of ``costMemo``.
    let costVariables: [String?: [String]]
    /// Prices of the operations that depend on variables, by those variables' values.
    let costMemo = CostMemo()

    /// Parses, validates and analyses `text`.
    /// - Throws: the ``GraphQLSyntaxError`` of a document that does not parse (not stored).
    init(
        text: String, schema: GraphQLSchema, parse: ParseOptions, validation: ValidationOptions, defaultMaxAge: Int,
        costModel: CostModel? = nil
    ) throws(GraphQLSyntaxError) {
        let source = Source(text, name: "GraphQL request")
        let document = try GatewayTracing.leaf("graphql.parse") { () throws(GraphQLSyntaxError) in
            try Document(parsing: source, options: parse)
        }
        self.source = source
        self.document = document
        self.operations = document.operations
        self.textBytes = text.utf8.count
        errors = GatewayTracing.leaf("graphql.validate") {
            Validator.validate(schema: schema, document: document, source: source, options: validation)
        }
        introspectionUse = IntrospectionFinder.firstUse(in: document)
        usesIncrementalDelivery = IncrementalDirectiveFinder.usesIncrementalDelivery(document)
        let fragments = Dictionary(document.fragments.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        self.fragments = fragments
        guard errors.isEmpty else {
            printed = nil
            queryPolicies = [:]
            sharedCards = [:]
            staticCosts = [:]
            costVariables = [:]
            return
        }
        printed = document.printed
        var costs: [String?: Int] = [:]
        var costVariables: [String?: [String]] = [:]
        if let costModel {
            for operation in operations {
                let estimate = CostEstimator.estimate(
                    operation, schema: schema, model: costModel, fragments: fragments, variables: nil)
                if estimate.dependsOnVariables {
                    costVariables[operation.name?.value] = estimate.variablesRead
                } else {
                    costs[operation.name?.value] = estimate.cost
                }
            }
        }
        staticCosts = costs
        self.costVariables = costVariables
        var policies: [String?: CachePolicy] = [:]
        for operation in operations where operation.operation == .query {
            policies[operation.name?.value] = CachePolicy.of(
                operation, fragments: fragments, schema: schema, defaultMaxAge: defaultMaxAge)
        }
        queryPolicies = policies
        var shapes: [String?: SharedCardShape] = [:]
        for operation in operations {
            if let shape = SharedCardShape.of(operation) { shapes[operation.name?.value] = shape }
        }
        sharedCards = shapes
    }

    /// The operation a request selects (§6.1 GetOperation), if it is unambiguous.
    func operation(named name: String?) -> OperationDefinition? {
        if let name { return operations.first { $0.name?.value == name } }
        return operations.count == 1 ? operations[0] : nil
    }
}
