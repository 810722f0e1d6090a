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
    let typeInfo = TypeInfo()
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

    private var referencedFragments: [Int: [FragmentDefinition]] = [:]

    /// The fragments an operation spreads, directly or through other fragments, each
    /// once; memoized by the operation's index in the document.
    func recursivelyReferencedFragments(of operation: OperationDefinition, index: Int) -> [FragmentDefinition] {
        if let known = referencedFragments[index] { return known }
        let result = recursivelyReferencedFragments(of: operation)
        referencedFragments[index] = result
        return result
    }

    private func recursivelyReferencedFragments(of operation: OperationDefinition) -> [FragmentDefinition] {
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

    /// Variable usages of the definition being visited, recorded by the walker with the
    /// TypeInfo it already keeps (so operations are not walked a second time).
    var currentUsages: [VariableUsage] = []

    func recordUsage(_ variable: Variable) {
        currentUsages.append(
            VariableUsage(
                variable: variable, type: typeInfo.inputType, hasLocationDefault: typeInfo.hasDefaultValue,
                parentType: typeInfo.parentInputType))
    }

    /// Keeps the usages the walker recorded for a fragment, for operations that spread it later.
    func storeUsages(ofFragment name: String) {
        if fragmentUsages[name] == nil { fragmentUsages[name] = currentUsages }
    }

    /// The index in the document of the definition being visited (set by the walker).
    var definitionIndex = -1
    private var operationUsages: (index: Int, usages: [VariableUsage]) = (-1, [])

    /// Every variable usage in the operation being visited and the fragments it
    /// reaches; computed once for the three variable rules that ask. Call it only while
    /// the operation is being left: its own usages are the ones the walker recorded.
    func recursiveVariableUsages(of operation: OperationDefinition) -> [VariableUsage] {
        if operationUsages.index == definitionIndex { return operationUsages.usages }
        var usages = currentUsages
        for fragment in recursivelyReferencedFragments(of: operation, index: definitionIndex) {
            if let cached = fragmentUsages[fragment.name.value] {
                usages += cached
            } else if !Self.containsVariables(fragment.selectionSet) {
                fragmentUsages[fragment.name.value] = []
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

    /// Whether any argument in the selection set (through fields and inline fragments,
    /// not spreads) uses a variable: a cheap syntactic test that spares most fragments
    /// the typed walk of ``VariableUsageCollector``.
    static func containsVariables(_ selectionSet: SelectionSet) -> Bool {
        func inValue(_ value: Value) -> Bool {
            switch value {
            case .variable: return true
            case .list(let list): return list.values.contains(where: inValue)
            case .object(let object): return object.fields.contains { inValue($0.value) }
            default: return false
            }
        }
        func inDirectives(_ directives: [Directive]) -> Bool {
            directives.contains { $0.arguments.contains { inValue($0.value) } }
        }
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if field.arguments.contains(where: { inValue($0.value) }) || inDirectives(field.directives) { return true }
                if let sub = field.selectionSet, containsVariables(sub) { return true }
            case .fragmentSpread(let spread):
                if inDirectives(spread.directives) { return true }
            case .inlineFragment(let inline):
                if inDirectives(inline.directives) || containsVariables(inline.selectionSet) { return true }
            }
        }
        return false
    }
}
