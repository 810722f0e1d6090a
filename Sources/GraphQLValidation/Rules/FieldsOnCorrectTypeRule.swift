import GraphQLEngine
import GraphQLLanguage

/// §5.3.1 Field Selections: "For each selection in the document: let fieldName be the
/// target field of selection; fieldName must be defined on type in scope."
///
/// Why: a field the type does not define has no resolver and no type. The message
/// suggests inline fragments on types that have the field (for abstract types), or
/// similarly named fields — graphql-js's wording and ordering.
final class FieldsOnCorrectTypeRule: ValidationRule {
    override class var hooks: Hooks { .field }

    override func enterField(_ field: Field) {
        guard let parentType = typeInfo.parentType, typeInfo.fieldDef == nil else { return }
        let name = field.name.value
        let typeNames = suggestedTypeNames(parentType, name)
        let suggestion =
            typeNames.isEmpty
            ? Suggestions.didYouMean(Suggestions.list(name, parentType.fields.map(\.name)))
            : Suggestions.didYouMean("to use an inline fragment on", typeNames)
        report("Cannot query field \"\(name)\" on type \"\(parentType.name)\".\(suggestion)", field.range)
    }

    /// Possible types (and their interfaces) of an abstract type that define the
    /// field, most used first, then interfaces before their implementations.
    private func suggestedTypeNames(_ type: GraphQLNamedType, _ fieldName: String) -> [String] {
        guard type.isAbstract else { return [] }
        var suggested: [GraphQLNamedType] = []
        var usage: [String: Int] = [:]
        for object in schema.possibleTypes(of: type) where object.field(named: fieldName) != nil {
            if usage[object.name] == nil { suggested.append(.object(object)) }
            usage[object.name] = 1
            for interface in object.interfaces where interface.field(named: fieldName) != nil {
                if usage[interface.name] == nil { suggested.append(.interface(interface)) }
                usage[interface.name, default: 0] += 1
            }
        }
        return suggested.sorted { a, b in
            let diff = usage[b.name]! - usage[a.name]!
            if diff != 0 { return diff < 0 }
            if case .interface = a, schema.isSubType(a, b) { return true }
            if case .interface = b, schema.isSubType(b, a) { return false }
            return Suggestions.naturalCompare(a.name, b.name) < 0
        }.map(\.name)
    }
}
