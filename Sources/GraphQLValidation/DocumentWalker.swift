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
    // The rules interested in each kind of node (see ``ValidationRule/hooks``).
    private let documentRules, operationRules, fragmentRules, variableRules, namedTypeRules: [ValidationRule]
    private let selectionSetRules, fieldRules, spreadRules, inlineRules, directivesRules: [ValidationRule]
    private let directiveRules, argumentRules, valueRules, objectFieldRules: [ValidationRule]

    init(context: ValidationContext, rules: [ValidationRule]) {
        self.context = context
        self.rules = rules
        func interested(_ hook: ValidationRule.Hooks) -> [ValidationRule] {
            rules.filter { type(of: $0).hooks.contains(hook) }
        }
        documentRules = interested(.document)
        operationRules = interested(.operation)
        fragmentRules = interested(.fragmentDefinition)
        variableRules = interested(.variableDefinition)
        namedTypeRules = interested(.namedType)
        selectionSetRules = interested(.selectionSet)
        fieldRules = interested(.field)
        spreadRules = interested(.fragmentSpread)
        inlineRules = interested(.inlineFragment)
        directivesRules = interested(.directives)
        directiveRules = interested(.directive)
        argumentRules = interested(.argument)
        valueRules = interested(.value)
        objectFieldRules = interested(.objectField)
    }

    private var schema: GraphQLSchema { context.schema }

    func walk(_ document: Document) {
        for rule in documentRules { rule.enterDocument(document) }
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
        for rule in documentRules { rule.leaveDocument(document) }
    }

    private func walk(_ operation: OperationDefinition) {
        context.currentUsages.removeAll(keepingCapacity: true)
        context.typeInfo.pushType(schema.rootType(for: operation.operation).map { .named(.object($0)) })
        for rule in operationRules { rule.enterOperation(operation) }
        for definition in operation.variableDefinitions { walk(definition) }
        let location: DirectiveLocation =
            switch operation.operation {
            case .query: .query
            case .mutation: .mutation
            case .subscription: .subscription
            }
        walk(operation.directives, location)
        walk(operation.selectionSet)
        for rule in operationRules { rule.leaveOperation(operation) }
        context.typeInfo.popType()
    }

    private func walk(_ definition: VariableDefinition) {
        context.typeInfo.pushInputType(schema.type(from: definition.type))
        for rule in variableRules { rule.enterVariableDefinition(definition) }
        let named = definition.type.namedType
        for rule in namedTypeRules { rule.enterNamedType(named) }
        if let value = definition.defaultValue { walk(value) }
        walk(definition.directives, .variableDefinition)
        context.typeInfo.popInputType()
    }

    private func walk(_ fragment: FragmentDefinition) {
        context.currentUsages.removeAll(keepingCapacity: true)
        context.typeInfo.pushType(schema.type(named: fragment.typeCondition.name.value).map(GraphQLType.named))
        for rule in fragmentRules { rule.enterFragmentDefinition(fragment) }
        for rule in namedTypeRules { rule.enterNamedType(fragment.typeCondition) }
        walk(fragment.directives, .fragmentDefinition)
        walk(fragment.selectionSet)
        for rule in fragmentRules { rule.leaveFragmentDefinition(fragment) }
        context.storeUsages(ofFragment: fragment.name.value)
        context.typeInfo.popType()
    }

    private func walk(_ selectionSet: SelectionSet) {
        context.typeInfo.pushParentType()
        for rule in selectionSetRules { rule.enterSelectionSet(selectionSet) }
        for selection in selectionSet.selections {
            if context.isAborted { break }
            switch selection {
            case .field(let field): walk(field)
            case .fragmentSpread(let spread):
                for rule in spreadRules { rule.enterFragmentSpread(spread) }
                walk(spread.directives, .fragmentSpread)
            case .inlineFragment(let inline): walk(inline)
            }
        }
        context.typeInfo.popParentType()
    }

    private func walk(_ field: Field) {
        context.typeInfo.pushField(field, schema: schema)
        for rule in fieldRules { rule.enterField(field) }
        for argument in field.arguments { walk(argument) }
        walk(field.directives, .field)
        if let selectionSet = field.selectionSet { walk(selectionSet) }
        for rule in fieldRules { rule.leaveField(field) }
        context.typeInfo.popField()
    }

    private func walk(_ inline: InlineFragment) {
        if let condition = inline.typeCondition {
            context.typeInfo.pushType(schema.type(named: condition.name.value).map(GraphQLType.named))
        } else {
            context.typeInfo.pushType(context.typeInfo.type.map { .named($0.namedType) })
        }
        for rule in inlineRules { rule.enterInlineFragment(inline) }
        if let condition = inline.typeCondition {
            for rule in namedTypeRules { rule.enterNamedType(condition) }
        }
        walk(inline.directives, .inlineFragment)
        walk(inline.selectionSet)
        context.typeInfo.popType()
    }

    private func walk(_ directives: [Directive], _ location: DirectiveLocation) {
        guard !directives.isEmpty else { return }
        for rule in directivesRules { rule.enterDirectives(directives) }
        for directive in directives {
            context.typeInfo.directive = schema.directive(named: directive.name.value)
            for rule in directiveRules { rule.enterDirective(directive, location: location) }
            for argument in directive.arguments { walk(argument) }
            for rule in directiveRules { rule.leaveDirective(directive) }
            context.typeInfo.directive = nil
        }
    }

    private func walk(_ argument: Argument) {
        context.typeInfo.pushArgument(argument)
        for rule in argumentRules { rule.enterArgument(argument) }
        walk(argument.value)
        context.typeInfo.popArgument()
    }

    private func walk(_ value: Value) {
        switch value {
        case .list(let list):
            context.typeInfo.pushListItem()
            for rule in valueRules { rule.enterValue(value) }
            for item in list.values { walk(item) }
            for rule in valueRules { rule.leaveValue(value) }
            context.typeInfo.popInputType()
        case .object(let object):
            for rule in valueRules { rule.enterValue(value) }
            for field in object.fields {
                context.typeInfo.pushObjectField(field)
                for rule in objectFieldRules { rule.enterObjectField(field) }
                walk(field.value)
                context.typeInfo.popInputType()
            }
            for rule in valueRules { rule.leaveValue(value) }
        default:
            if case .variable(let variable) = value { context.recordUsage(variable) }
            for rule in valueRules { rule.enterValue(value) }
            for rule in valueRules { rule.leaveValue(value) }
        }
    }
}
