import GraphQLLanguage
import GraphQLEngine

/// Guard (not in the spec): rejects operations whose field count (a cost model of its own) exceeds
/// ``ValidationOptions/maxFieldCount``.
///
/// The cost model, computed per operation through fragments:
/// - each field costs 1, plus the cost of its selection set;
/// - a field with a `first` or `last` argument (a page of a list or connection)
///   multiplies its selection set's cost by that page size: the larger of the two if
///   both are given, read from an integer literal or from the default value of the
///   variable passed (a variable without a default counts as 1, since validation
///   has no variable values);
/// - every branch of inline fragments and spreads counts (an upper bound);
/// - introspection fields (`__typename`, `__schema`, `__type` and what they select) count like
///   any other field.
///
/// So `{ followers(first: 50) { edges { node { id } } } }` costs 1 + 50 × 3 = 151.
/// Arithmetic saturates instead of overflowing. Each fragment's cost is computed
/// once per operation, so the rule is linear in the document.
///
/// The gateway prices with the schema's cost directives instead (``GraphQLEngine/CostEstimator``,
/// per request with its variables); this schema-agnostic count stays for validation without
/// them, and as the "old" cost the shipped documents are compared under.
final class MaxFieldCountRule: ValidationRule {
    override class var hooks: Hooks { .operation }

    private var fragmentCosts: [String: Int] = [:]
    private var inProgress: Set<String> = []
    private var variableDefaults: [String: Int] = [:]

    override func leaveOperation(_ operation: OperationDefinition) {
        guard let limit = context.options.maxFieldCount else { return }
        fragmentCosts = [:]
        variableDefaults = [:]
        for definition in operation.variableDefinitions {
            if case .int(let literal)? = definition.defaultValue, let value = Int(literal.value) {
                variableDefaults[definition.variable.name.value] = value
            }
        }
        let cost = cost(of: operation.selectionSet)
        guard cost > limit else { return }
        let subject = operation.name.map { "Operation \"\($0.value)\"" } ?? "Anonymous operation"
        context.report(
            "\(subject) has a cost of \(cost), which exceeds the maximum cost of \(limit).", [operation.range],
            extensions: ["code": "QUERY_TOO_COMPLEX"])
    }

    private func cost(of selectionSet: SelectionSet) -> Int {
        var total = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                var fieldCost = 1
                if let sub = field.selectionSet {
                    fieldCost = saturatingAdd(1, saturatingMultiply(pageSize(field), cost(of: sub)))
                }
                total = saturatingAdd(total, fieldCost)
            case .inlineFragment(let inline):
                total = saturatingAdd(total, cost(of: inline.selectionSet))
            case .fragmentSpread(let spread):
                total = saturatingAdd(total, fragmentCost(spread.name.value))
            }
        }
        return total
    }

    /// The `first`/`last` page size of a field (1 if none).
    private func pageSize(_ field: Field) -> Int {
        var size = 1
        for argument in field.arguments where argument.name.value == "first" || argument.name.value == "last" {
            switch argument.value {
            case .int(let literal): size = max(size, Int(literal.value) ?? Int.max)
            case .variable(let variable): size = max(size, variableDefaults[variable.name.value] ?? 1)
            default: break
            }
        }
        return size
    }

    private func fragmentCost(_ name: String) -> Int {
        if let known = fragmentCosts[name] { return known }
        guard let fragment = context.fragment(named: name), inProgress.insert(name).inserted else { return 0 }
        let value = cost(of: fragment.selectionSet)
        inProgress.remove(name)
        fragmentCosts[name] = value
        return value
    }
}
