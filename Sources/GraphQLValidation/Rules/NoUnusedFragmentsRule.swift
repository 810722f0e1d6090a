import GraphQLLanguage

/// §5.5.1.4 Fragments Must Be Used: "Defined fragments must be used within a document."
///
/// Why: an unused fragment is dead code, most likely a mistake; reported when the
/// document is left, after every operation's reach is known.
final class NoUnusedFragmentsRule: ValidationRule {
    private var operations: [OperationDefinition] = []
    private var fragments: [FragmentDefinition] = []

    override func enterOperation(_ operation: OperationDefinition) { operations.append(operation) }
    override func enterFragmentDefinition(_ fragment: FragmentDefinition) { fragments.append(fragment) }

    override func leaveDocument(_ document: Document) {
        var used: Set<String> = []
        for operation in operations {
            for fragment in context.recursivelyReferencedFragments(of: operation) { used.insert(fragment.name.value) }
        }
        for fragment in fragments where !used.contains(fragment.name.value) {
            report("Fragment \"\(fragment.name.value)\" is never used.", fragment.range)
        }
    }
}
