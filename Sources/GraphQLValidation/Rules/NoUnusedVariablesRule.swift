import GraphQLLanguage

/// §5.8.4 All Variables Used: "For every operation: for every variable defined on that
/// operation, the variable must be used in the operation or a fragment it spreads,
/// transitively."
///
/// Why: an unused variable is most likely a mistake.
final class NoUnusedVariablesRule: ValidationRule {
    override class var hooks: Hooks { [.operation, .variableDefinition] }

    private var definitions: [VariableDefinition] = []

    override func enterOperation(_ operation: OperationDefinition) { definitions = [] }

    override func enterVariableDefinition(_ definition: VariableDefinition) { definitions.append(definition) }

    override func leaveOperation(_ operation: OperationDefinition) {
        guard !definitions.isEmpty else { return }
        let used = Set(context.recursiveVariableUsages(of: operation).map(\.variable.name.value))
        for definition in definitions where !used.contains(definition.variable.name.value) {
            let name = definition.variable.name.value
            let message =
                operation.name.map { "Variable \"$\(name)\" is never used in operation \"\($0.value)\"." }
                ?? "Variable \"$\(name)\" is never used."
            report(message, definition.range)
        }
    }
}
