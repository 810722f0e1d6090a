import GraphQLLanguage

/// Incremental delivery: no `@defer` or `@stream` in a subscription (its own selections and the
/// fragments it spreads) unless its `if` can be false (`if: false`, or a variable).
///
/// Why: each event of a subscription is one whole response; there is no later payload to send a
/// deferred part in. A variable `if` lets one document serve as both a query and a subscription.
/// graphql-js 17's `DeferStreamDirectiveOnValidOperationsRule`, with its messages.
final class DeferStreamDirectiveOnValidOperationsRule: ValidationRule {
    override class var hooks: Hooks { [.document, .operation, .fragmentDefinition, .directive] }

    /// The fragments some subscription of the document spreads, directly or not.
    private var subscriptionFragments: Set<String> = []
    private var inSubscription = false

    override func enterDocument(_ document: Document) {
        for (index, definition) in document.definitions.enumerated() {
            guard case .operation(let operation) = definition, operation.operation == .subscription else { continue }
            for fragment in context.recursivelyReferencedFragments(of: operation, index: index) {
                subscriptionFragments.insert(fragment.name.value)
            }
        }
    }

    override func enterOperation(_ operation: OperationDefinition) {
        inSubscription = operation.operation == .subscription
    }

    override func enterFragmentDefinition(_ fragment: FragmentDefinition) {
        inSubscription = subscriptionFragments.contains(fragment.name.value)
    }

    override func enterDirective(_ directive: Directive, location: DirectiveLocation) {
        guard inSubscription else { return }
        switch directive.name.value {
        case "defer" where !Self.ifCanBeFalse(directive):
            report(
                "Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`.",
                directive.range)
        case "stream" where !Self.ifCanBeFalse(directive):
            report(
                "Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`.",
                directive.range)
        default:
            break
        }
    }

    /// graphql-js's `ifArgumentCanBeFalse`: `if: false`, or a variable.
    private static func ifCanBeFalse(_ directive: Directive) -> Bool {
        guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { return false }
        switch argument.value {
        case .boolean(let value): return !value.value
        case .variable: return true
        default: return false
        }
    }
}
