import GraphQLEngine
import GraphQLLanguage

/// One use of a variable, with the type and default of the position it is used in
/// (graphql-js's `VariableUsage`).
struct VariableUsage {
    var variable: Variable
    /// The type expected where the variable is used; nil if unknown.
    var type: GraphQLType?
    /// Whether the argument or input field the variable is passed to has a default value.
    var hasLocationDefault: Bool
    /// The type of the list or input object directly containing the variable.
    var parentType: GraphQLType?
}

/// The state shared by every rule during one validation: the schema and document,
/// the errors so far, the ``TypeInfo`` of the node being visited, and memoized
/// facts about fragments that several rules ask for.
///
/// Why memoized: NoFragmentCycles, NoUnusedFragments and the three variable rules all
/// need the spreads of a selection set and the fragments an operation reaches;
/// computing them once per fragment keeps validation linear in the document size.
final class ValidationContext {
    let schema: GraphQLSchema
    let document: Document
    let source: Source?
    let options: ValidationOptions
    var typeInfo = TypeInfo()
    private(set) var errors: [GraphQLError] = []
    /// Set when the error limit is reached; the walker stops at the next node.
    private(set) var isAborted = false

    /// Fragment definitions by name (the first of each name).
    let fragments: [String: FragmentDefinition]
    /// Variable usages per definition, memoized ("" + index for operations, name for fragments).
    private var fragmentUsages: [String: [VariableUsage]] = [:]
    private var fragmentSpreadsByFragment: [String: [FragmentSpread]] = [:]

    static let validationCode: JSONObject = ["code": "GRAPHQL_VALIDATION_FAILED"]

    init(schema: GraphQLSchema, document: Document, source: Source?, options: ValidationOptions) {
        self.schema = schema
        self.document = document
        self.source = source
        self.options = options
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in document.definitions where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment
        }
        self.fragments = fragments
    }

    /// Records an error located at `ranges` (in the order the rule reports them).
    ///
    /// Past ``ValidationOptions/maxErrors``, appends graphql-js's abort error instead
    /// and stops validation.
    func report(_ message: String, _ ranges: [SourceRange], extensions: JSONObject = ValidationContext.validationCode) {
        guard !isAborted else { return }
        if errors.count >= options.maxErrors {
            errors.append(
                GraphQLError(
                    "Too many validation errors, error limit reached. Validation aborted.",
                    extensions: ValidationContext.validationCode))
            isAborted = true
            return
        }
        errors.append(GraphQLError(message, ranges: ranges, source: source, extensions: extensions))
    }

    func fragment(named name: String) -> FragmentDefinition? { fragments[name] }

    /// The spreads in a selection set, through fields and inline fragments but not
    /// into other fragments, in graphql-js's order (a stack of selection sets).
    func fragmentSpreads(of selectionSet: SelectionSet) -> [FragmentSpread] {
        var spreads: [FragmentSpread] = []
        var setsToVisit: [SelectionSet] = [selectionSet]
        while let set = setsToVisit.popLast() {
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let spread): spreads.append(spread)
                case .field(let field): if let sub = field.selectionSet { setsToVisit.append(sub) }
                case .inlineFragment(let inline): setsToVisit.append(inline.selectionSet)
                }
            }
        }
        return spreads
    }

    /// ``fragmentSpreads(of:)`` of a fragment's selection set, memoized by name.
    func fragmentSpreads(ofFragment fragment: FragmentDefinition) -> [FragmentSpread] {
        if let cached = fragmentSpreadsByFragment[fragment.name.value] { return cached }
        let spreads = fragmentSpreads(of: fragment.selectionSet)
        fragmentSpreadsByFragment[fragment.name.value] = spreads
        return spreads
    }

    /// The fragments an operation spreads, directly or through other fragments, each once.
    func recursivelyReferencedFragments(of operation: OperationDefinition) -> [FragmentDefinition] {
        var result: [FragmentDefinition] = []
        var collected: Set<String> = []
        var nodesToVisit: [[FragmentSpread]] = [fragmentSpreads(of: operation.selectionSet)]
        while let spreads = nodesToVisit.popLast() {
            for spread in spreads {
                let name = spread.name.value
                guard collected.insert(name).inserted, let fragment = fragments[name] else { continue }
                result.append(fragment)
                nodesToVisit.append(fragmentSpreads(ofFragment: fragment))
            }
        }
        return result
    }

    /// The index in the document of the definition being visited (set by the walker).
    var definitionIndex = -1
    private var operationUsages: (index: Int, usages: [VariableUsage]) = (-1, [])

    /// Every variable usage in the operation being visited and the fragments it
    /// reaches; computed once for the three variable rules that ask.
    func recursiveVariableUsages(of operation: OperationDefinition) -> [VariableUsage] {
        if operationUsages.index == definitionIndex { return operationUsages.usages }
        var collector = VariableUsageCollector(schema: schema)
        var usages = collector.collect(operation: operation)
        for fragment in recursivelyReferencedFragments(of: operation) {
            if let cached = fragmentUsages[fragment.name.value] {
                usages += cached
            } else {
                var fragmentCollector = VariableUsageCollector(schema: schema)
                let found = fragmentCollector.collect(fragment: fragment)
                fragmentUsages[fragment.name.value] = found
                usages += found
            }
        }
        operationUsages = (definitionIndex, usages)
        return usages
    }
}
