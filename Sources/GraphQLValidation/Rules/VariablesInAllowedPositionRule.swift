import GraphQLEngine
import GraphQLLanguage

/// §5.8.5 All Variable Usages Are Allowed: "For each variableUsage in variableUsages:
/// IsVariableUsageAllowed(variableDefinition, variableUsage) must be true."
///
/// Why: a variable's values must be acceptable wherever it is used. A nullable variable
/// may go to a non-null position only if the variable or the position has a default.
///
/// A field of a OneOf Input Object is a non-null position (IsNonNullPosition), checked
/// apart as graphql-js 17 does, with its own message, and beside a type mismatch rather
/// than instead of it. As in graphql-js 17 and the spec's prose ("Variables used for
/// OneOf Input Object fields must be non-nullable") a default does not excuse a nullable
/// variable, which could still be given an explicit null. This rule alone reports it
/// (graphql-js 16 had it in ValuesOfCorrectType, with another message).
final class VariablesInAllowedPositionRule: ValidationRule {
    override class var hooks: Hooks { [.operation, .variableDefinition] }

    private var definitions: [String: VariableDefinition] = [:]

    override func enterOperation(_ operation: OperationDefinition) { definitions = [:] }

    override func enterVariableDefinition(_ definition: VariableDefinition) {
        definitions[definition.variable.name.value] = definition
    }

    override func leaveOperation(_ operation: OperationDefinition) {
        guard !definitions.isEmpty else { return }
        for usage in context.recursiveVariableUsages(of: operation) {
            let name = usage.variable.name.value
            guard let definition = definitions[name], let locationType = usage.type,
                let variableType = schema.type(from: definition.type)
            else { continue }
            var hasNonNullDefault = false
            if let value = definition.defaultValue, case .null = value {} else if definition.defaultValue != nil {
                hasNonNullDefault = true
            }
            if !isAllowed(variableType, hasNonNullDefault, locationType, usage.hasLocationDefault) {
                report(
                    "Variable \"$\(name)\" of type \"\(variableType)\" used in position expecting type \"\(locationType)\".",
                    definition.range, usage.variable.range)
            }
            if case .named(.inputObject(let parent))? = usage.parentType?.nullable, parent.isOneOf,
                !variableType.isNonNull
            {
                // IsNonNullPosition: a field of a OneOf Input Object.
                report(
                    "Variable \"$\(name)\" is of type \"\(variableType)\" but must be non-nullable to be used for OneOf Input Object \"\(parent.name)\".",
                    definition.range, usage.variable.range)
            }
        }
    }

    /// IsVariableUsageAllowed without the OneOf position, which is reported separately.
    private func isAllowed(
        _ variableType: GraphQLType, _ hasNonNullDefault: Bool, _ locationType: GraphQLType, _ hasLocationDefault: Bool
    ) -> Bool {
        if case .nonNull(let nullableLocation) = locationType, !variableType.isNonNull {
            guard hasNonNullDefault || hasLocationDefault else { return false }
            return schema.isTypeSubType(variableType, of: nullableLocation)
        }
        return schema.isTypeSubType(variableType, of: locationType)
    }
}
