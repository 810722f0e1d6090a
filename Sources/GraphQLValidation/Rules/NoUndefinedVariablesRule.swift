import GraphQLLanguage

/// §5.8.3 All Variable Uses Defined: "For each variableUsage in scope, variable must
/// be in operation's variable list", scope being the operation and every fragment it
/// spreads, transitively.
///
/// Why: an undefined variable has no type and no value.
final class NoUndefinedVariablesRule: ValidationRule {
    override class var hooks: Hooks { [.operation, .variableDefinition] }

    private var defined: Set<String> = []

    override func enterOperation(_ operation: OperationDefinition) { defined = [] }

    override func enterVariableDefinition(_ definition: VariableDefinition) {
        defined.insert(definition.variable.name.value)
    }

    override func leaveOperation(_ operation: OperationDefinition) {
        for usage in context.recursiveVariableUsages(of: operation) {
            let name = usage.variable.name.value
            guard !defined.contains(name) else { continue }
            let message =
                operation.name.map { "Variable \"$\(name)\" is not defined by operation \"\($0.value)\"." }
                ?? "Variable \"$\(name)\" is not defined."
            report(message, usage.variable.range, operation.range)
        }
    }
}
