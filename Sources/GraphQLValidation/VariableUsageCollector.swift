import GraphQLEngine
import GraphQLLanguage

/// Finds the variables a fragment uses, with the type expected at each use —
/// graphql-js's `getVariableUsages`, which walks the definition with a TypeInfo.
///
/// The main traversal records the usages of operations and of fragments it has
/// passed; this walk is for fragments defined after the operation that spreads them
/// (the variable rules run when the operation is left), and only for those that
/// contain a variable at all.
struct VariableUsageCollector {
    let schema: GraphQLSchema
    private let typeInfo = TypeInfo()
    private var usages: [VariableUsage] = []

    init(schema: GraphQLSchema) { self.schema = schema }

    mutating func collect(fragment: FragmentDefinition) -> [VariableUsage] {
        typeInfo.pushType(schema.type(named: fragment.typeCondition.name.value).map(GraphQLType.named))
        directives(fragment.directives)
        selectionSet(fragment.selectionSet)
        return usages
    }

    private mutating func selectionSet(_ set: SelectionSet) {
        typeInfo.pushParentType()
        for selection in set.selections {
            switch selection {
            case .field(let field):
                typeInfo.pushField(field, schema: schema)
                for argument in field.arguments {
                    typeInfo.pushArgument(argument)
                    value(argument.value)
                    typeInfo.popArgument()
                }
                directives(field.directives)
                if let sub = field.selectionSet { selectionSet(sub) }
                typeInfo.popField()
            case .fragmentSpread(let spread):
                directives(spread.directives)
            case .inlineFragment(let inline):
                if let condition = inline.typeCondition {
                    typeInfo.pushType(schema.type(named: condition.name.value).map(GraphQLType.named))
                } else {
                    typeInfo.pushType(typeInfo.type.map { .named($0.namedType) })
                }
                directives(inline.directives)
                selectionSet(inline.selectionSet)
                typeInfo.popType()
            }
        }
        typeInfo.popParentType()
    }

    private mutating func directives(_ directives: [Directive]) {
        for directive in directives where !directive.arguments.isEmpty {
            typeInfo.directive = schema.directive(named: directive.name.value)
            for argument in directive.arguments {
                typeInfo.pushArgument(argument)
                value(argument.value)
                typeInfo.popArgument()
            }
            typeInfo.directive = nil
        }
    }

    private mutating func value(_ value: Value) {
        switch value {
        case .variable(let variable):
            usages.append(
                VariableUsage(
                    variable: variable, type: typeInfo.inputType, hasLocationDefault: typeInfo.hasDefaultValue,
                    parentType: typeInfo.parentInputType))
        case .list(let list):
            typeInfo.pushListItem()
            for item in list.values { self.value(item) }
            typeInfo.popInputType()
        case .object(let object):
            for field in object.fields {
                typeInfo.pushObjectField(field)
                self.value(field.value)
                typeInfo.popInputType()
            }
        default: break
        }
    }
}
