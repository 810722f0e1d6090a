import GraphQLLanguage

/// §5.8.1 Variable Uniqueness: "Let variables be all variables named variableName on
/// operation. variables must be a set of one."
///
/// Why: two definitions of one variable give it two types.
final class UniqueVariableNamesRule: ValidationRule {
    override class var hooks: Hooks { .operation }

    override func enterOperation(_ operation: OperationDefinition) {
        let definitions = operation.variableDefinitions
        guard definitions.count > 1 else { return }
        var order: [String] = []
        var groups: [String: [SourceRange]] = [:]
        for definition in definitions {
            let name = definition.variable.name
            if groups[name.value] == nil { order.append(name.value) }
            groups[name.value, default: []].append(name.range)
        }
        for name in order where groups[name]!.count > 1 {
            report("There can be only one variable named \"$\(name)\".", ranges: groups[name]!)
        }
    }
}
