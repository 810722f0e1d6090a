import GraphQLLanguage

/// Guard (not in the spec): rejects operations nested deeper than
/// ``ValidationOptions/maxDepth``.
///
/// Depth counts nested selection sets through fragments: `{ viewer { handle } }` has
/// depth 2; fragments and inline fragments add no level of their own. Introspection
/// (`__schema`, `__type`) counts like any other selection: a nested
/// `interfaces { possibleTypes { ... } }` is as deep as it looks. The standard introspection
/// queries of tools are 13 deep (graphql-js 16, gql: seven `ofType` levels) to 15 (graphql-js
/// 17 and graphql-core 3.3: nine), which is why the gateway's limit is 15. Each fragment's
/// depth is computed once, so the rule is linear in the document.
final class MaxDepthRule: ValidationRule {
    override class var hooks: Hooks { .operation }

    private var fragmentDepths: [String: Int] = [:]
    private var inProgress: Set<String> = []

    override func leaveOperation(_ operation: OperationDefinition) {
        guard let limit = context.options.maxDepth else { return }
        let depth = depth(of: operation.selectionSet)
        guard depth > limit else { return }
        let subject = operation.name.map { "Operation \"\($0.value)\"" } ?? "Anonymous operation"
        context.report(
            "\(subject) has depth \(depth), which exceeds the maximum depth of \(limit).", [operation.range],
            extensions: ["code": "QUERY_TOO_DEEP"])
    }

    private func depth(of selectionSet: SelectionSet) -> Int {
        var deepest = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                deepest = max(deepest, 1 + (field.selectionSet.map(depth(of:)) ?? 0))
            case .inlineFragment(let inline):
                deepest = max(deepest, depth(of: inline.selectionSet))
            case .fragmentSpread(let spread):
                deepest = max(deepest, fragmentDepth(spread.name.value))
            }
        }
        return deepest
    }

    private func fragmentDepth(_ name: String) -> Int {
        if let known = fragmentDepths[name] { return known }
        // A cycle (reported by NoFragmentCycles) adds nothing.
        guard let fragment = context.fragment(named: name), inProgress.insert(name).inserted else { return 0 }
        let value = depth(of: fragment.selectionSet)
        inProgress.remove(name)
        fragmentDepths[name] = value
        return value
    }
}
