import GraphQLLanguage

/// §5.5.1.4 Fragments Must Be Used: "Defined fragments must be used within a document."
///
/// Why: an unused fragment is dead code, most likely a mistake; reported when the
/// document is left, after every operation's reach is known.
final class NoUnusedFragmentsRule: ValidationRule {
    override class var hooks: Hooks { [.document, .operation, .fragmentDefinition] }

    private var operations: [(operation: OperationDefinition, index: Int)] = []
    private var fragments: [FragmentDefinition] = []

    override func enterOperation(_ operation: OperationDefinition) {
        operations.append((operation, context.definitionIndex))
    }
    override func enterFragmentDefinition(_ fragment: FragmentDefinition) { fragments.append(fragment) }

    override func leaveDocument(_ document: Document) {
        var used: Set<String> = []
        for (operation, index) in operations {
            for fragment in context.recursivelyReferencedFragments(of: operation, index: index) { used.insert(fragment.name.value) }
        }
        for fragment in fragments where !used.contains(fragment.name.value) {
            report("Fragment \"\(fragment.name.value)\" is never used.", fragment.range)
        }
    }
}
