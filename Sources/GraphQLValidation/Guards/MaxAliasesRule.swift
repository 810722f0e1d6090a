import GraphQLLanguage
import GraphQLEngine

/// Guard (not in the spec): rejects operations with more aliased fields than
/// ``ValidationOptions/maxAliases``.
///
/// Why: aliases let one request run the same expensive field many times
/// (`a1: search(...) a2: search(...) ...`), which depth and field-name checks do not
/// see. Counted through fragments (a fragment spread twice counts twice); each
/// fragment's count is computed once, so the rule is linear in the document.
final class MaxAliasesRule: ValidationRule {
    override class var hooks: Hooks { .operation }

    private var fragmentCounts: [String: Int] = [:]
    private var inProgress: Set<String> = []

    override func leaveOperation(_ operation: OperationDefinition) {
        guard let limit = context.options.maxAliases else { return }
        let count = aliases(in: operation.selectionSet)
        guard count > limit else { return }
        let subject = operation.name.map { "Operation \"\($0.value)\"" } ?? "Anonymous operation"
        context.report(
            "\(subject) has \(count) aliases, which exceeds the maximum of \(limit).", [operation.range],
            extensions: ["code": "TOO_MANY_ALIASES"])
    }

    private func aliases(in selectionSet: SelectionSet) -> Int {
        var total = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if field.alias != nil { total = saturatingAdd(total, 1) }
                if let sub = field.selectionSet { total = saturatingAdd(total, aliases(in: sub)) }
            case .inlineFragment(let inline):
                total = saturatingAdd(total, aliases(in: inline.selectionSet))
            case .fragmentSpread(let spread):
                total = saturatingAdd(total, fragmentCount(spread.name.value))
            }
        }
        return total
    }

    private func fragmentCount(_ name: String) -> Int {
        if let known = fragmentCounts[name] { return known }
        guard let fragment = context.fragment(named: name), inProgress.insert(name).inserted else { return 0 }
        let value = aliases(in: fragment.selectionSet)
        inProgress.remove(name)
        fragmentCounts[name] = value
        return value
    }
}
