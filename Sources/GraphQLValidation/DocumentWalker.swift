import GraphQLEngine
import GraphQLLanguage

/// The one traversal of a document: visits every executable node depth-first in
/// graphql-js's key order, keeps the ``TypeInfo`` current, and calls every rule's
/// hooks at each node (graphql-js's `visitInParallel` + `visitWithTypeInfo`).
///
/// Type-system definitions are not descended into: ExecutableDefinitions rejects them
/// and no other rule applies to them.
struct DocumentWalker {
    let context: ValidationContext
    let rules: [ValidationRule]

    private var schema: GraphQLSchema { context.schema }

    func walk(_ document: Document) {
        for rule in rules { rule.enterDocument(document) }
        for (index, definition) in document.definitions.enumerated() {
            if context.isAborted { return }
            context.definitionIndex = index
            switch definition {
            case .operation(let operation): walk(operation)
            case .fragment(let fragment): walk(fragment)
            default: break
            }
        }
        if context.isAborted { return }
        for rule in rules { rule.leaveDocument(document) }
    }

    private func walk(_ operation: OperationDefinition) {
        context.typeInfo.pushType(schema.rootType(for: operation.operation).map { .named(.object($0)) })
        for rule in rules { rule.enterOperation(operation) }
        for definition in operation.variableDefinitions { walk(definition) }
        let location: DirectiveLocation =
            switch operation.operation {
            case .query: .query
            case .mutation: .mutation
            case .subscription: .subscription
            }
        walk(operation.directives, location)
        walk(operation.selectionSet)
        for rule in rules { rule.leaveOperation(operation) }
        context.typeInfo.popType()
    }

    private func walk(_ definition: VariableDefinition) {
        context.typeInfo.pushInputType(schema.type(from: definition.type))
        for rule in rules { rule.enterVariableDefinition(definition) }
        let named = definition.type.namedType
        for rule in rules { rule.enterNamedType(named) }
        if let value = definition.defaultValue { walk(value) }
        walk(definition.directives, .variableDefinition)
        context.typeInfo.popInputType()
    }

    private func walk(_ fragment: FragmentDefinition) {
        context.typeInfo.pushType(schema.type(named: fragment.typeCondition.name.value).map(GraphQLType.named))
        for rule in rules { rule.enterFragmentDefinition(fragment) }
        for rule in rules { rule.enterNamedType(fragment.typeCondition) }
        walk(fragment.directives, .fragmentDefinition)
        walk(fragment.selectionSet)
        for rule in rules { rule.leaveFragmentDefinition(fragment) }
        context.typeInfo.popType()
    }

    private func walk(_ selectionSet: SelectionSet) {
        context.typeInfo.pushParentType()
        for rule in rules { rule.enterSelectionSet(selectionSet) }
        for selection in selectionSet.selections {
            if context.isAborted { break }
            switch selection {
            case .field(let field): walk(field)
            case .fragmentSpread(let spread):
                for rule in rules { rule.enterFragmentSpread(spread) }
                walk(spread.directives, .fragmentSpread)
            case .inlineFragment(let inline): walk(inline)
            }
        }
        context.typeInfo.popParentType()
    }

    private func walk(_ field: Field) {
        context.typeInfo.pushField(field, schema: schema)
        for rule in rules { rule.enterField(field) }
        for argument in field.arguments { walk(argument) }
        walk(field.directives, .field)
        if let selectionSet = field.selectionSet { walk(selectionSet) }
        for rule in rules { rule.leaveField(field) }
        context.typeInfo.popField()
    }

    private func walk(_ inline: InlineFragment) {
        if let condition = inline.typeCondition {
            context.typeInfo.pushType(schema.type(named: condition.name.value).map(GraphQLType.named))
        } else {
            context.typeInfo.pushType(context.typeInfo.type.map { .named($0.namedType) })
        }
        for rule in rules { rule.enterInlineFragment(inline) }
        if let condition = inline.typeCondition {
            for rule in rules { rule.enterNamedType(condition) }
        }
        walk(inline.directives, .inlineFragment)
        walk(inline.selectionSet)
        context.typeInfo.popType()
    }

    private func walk(_ directives: [Directive], _ location: DirectiveLocation) {
        guard !directives.isEmpty else { return }
        for rule in rules { rule.enterDirectives(directives) }
        for directive in directives {
            context.typeInfo.directive = schema.directive(named: directive.name.value)
            for rule in rules { rule.enterDirective(directive, location: location) }
            for argument in directive.arguments { walk(argument) }
            for rule in rules { rule.leaveDirective(directive) }
            context.typeInfo.directive = nil
        }
    }

    private func walk(_ argument: Argument) {
        context.typeInfo.pushArgument(argument)
        for rule in rules { rule.enterArgument(argument) }
        walk(argument.value)
        context.typeInfo.popArgument()
    }

    private func walk(_ value: Value) {
        switch value {
        case .list(let list):
            context.typeInfo.pushListItem()
            for rule in rules { rule.enterValue(value) }
            for item in list.values { walk(item) }
            for rule in rules { rule.leaveValue(value) }
            context.typeInfo.popInputType()
        case .object(let object):
            for rule in rules { rule.enterValue(value) }
            for field in object.fields {
                context.typeInfo.pushObjectField(field)
                for rule in rules { rule.enterObjectField(field) }
                walk(field.value)
                context.typeInfo.popInputType()
            }
            for rule in rules { rule.leaveValue(value) }
        default:
            for rule in rules { rule.enterValue(value) }
            for rule in rules { rule.leaveValue(value) }
        }
    }
}
