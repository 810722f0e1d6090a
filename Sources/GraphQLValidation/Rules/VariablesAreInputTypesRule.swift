import GraphQLLanguage

/// §5.8.2 Variables Are Input Types: "Let variableType be the type of variableDefinition.
/// IsInputType(variableType) must be true."
///
/// Why: variables arrive as input; an object or interface type cannot be coerced from it.
final class VariablesAreInputTypesRule: ValidationRule {
    override class var hooks: Hooks { .variableDefinition }

    override func enterVariableDefinition(_ definition: VariableDefinition) {
        guard let type = schema.type(from: definition.type), !type.isInputType else { return }
        report(
            "Variable \"$\(definition.variable.name.value)\" cannot be non-input type \"\(definition.type)\".",
            definition.type.range)
    }
}
