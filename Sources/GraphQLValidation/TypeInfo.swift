import GraphQLEngine
import GraphQLLanguage

/// What the traversal knows about the node being visited: the enclosing composite
/// type, the field and its type, the directive and argument, and the input type a
/// value must have — graphql-js's `TypeInfo`.
///
/// A class, not a struct: rules read it through the context on every node, and a
/// struct of five arrays would be copied (retained and released) on each read.
/// The ``DocumentWalker`` pushes before calling the rules' enter hooks and pops after
/// their leave hooks, so a rule sees the same state graphql-js's rules see.
final class TypeInfo {
    private(set) var parentTypeStack: [GraphQLNamedType?] = []
    private(set) var typeStack: [GraphQLType?] = []
    private(set) var fieldDefStack: [GraphQLField?] = []
    private(set) var inputTypeStack: [GraphQLType?] = []
    private(set) var defaultValueStack: [Bool] = []
    /// The directive whose arguments are being visited.
    var directive: GraphQLDirective?
    /// The argument definition of the argument being visited.
    var argument: GraphQLArgument?

    /// The composite type whose selection set is being visited.
    var parentType: GraphQLNamedType? { parentTypeStack.last ?? nil }
    /// The output type of the current field (or of the operation/fragment root).
    var type: GraphQLType? { typeStack.last ?? nil }
    var fieldDef: GraphQLField? { fieldDefStack.last ?? nil }
    /// The type the current value must have.
    var inputType: GraphQLType? { inputTypeStack.last ?? nil }
    /// The type of the list or input object containing the current value.
    var parentInputType: GraphQLType? {
        inputTypeStack.count >= 2 ? inputTypeStack[inputTypeStack.count - 2] : nil
    }
    /// Whether the argument or input field being visited has a default value.
    var hasDefaultValue: Bool { defaultValueStack.last ?? false }

    func pushType(_ type: GraphQLType?) { typeStack.append(type) }
    func popType() { typeStack.removeLast() }

    /// SelectionSet: the named type of the current type, if composite.
    func pushParentType() {
        if let named = type?.namedType, named.isComposite {
            parentTypeStack.append(named)
        } else {
            parentTypeStack.append(nil)
        }
    }
    func popParentType() { parentTypeStack.removeLast() }

    /// Field: its definition on the parent type (meta-fields included) and its type.
    func pushField(_ field: Field, schema: GraphQLSchema) {
        var def: GraphQLField?
        if let parent = parentType { def = schema.fieldDefinition(parentType: parent, name: field.name.value) }
        fieldDefStack.append(def)
        typeStack.append(def?.type)
    }
    func popField() {
        fieldDefStack.removeLast()
        typeStack.removeLast()
    }

    /// Argument: its definition on the current directive or field, and its type.
    func pushArgument(_ argument: Argument) {
        let name = argument.name.value
        let def = directive.map { $0.argument(named: name) } ?? fieldDef?.argument(named: name)
        self.argument = def
        defaultValueStack.append(def?.defaultValue != nil)
        inputTypeStack.append(def.flatMap { $0.type.isInputType ? $0.type : nil })
    }
    func popArgument() {
        argument = nil
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }

    /// ListValue: the item type of the expected list type (or the type itself,
    /// as input coercion accepts a single item for a list).
    func pushListItem() {
        var item = inputType?.nullable
        if case .list(let of) = item { item = of }
        defaultValueStack.append(false)
        inputTypeStack.append(item)
    }

    /// ObjectField: the input field's definition on the expected input object type.
    func pushObjectField(_ field: ObjectField) {
        var def: GraphQLInputField?
        if case .inputObject(let object) = inputType?.namedType { def = object.field(named: field.name.value) }
        defaultValueStack.append(def?.defaultValue != nil)
        inputTypeStack.append(def?.type)
    }

    /// VariableDefinition: the variable's type, if it is an input type.
    func pushInputType(_ type: GraphQLType?) {
        defaultValueStack.append(false)
        inputTypeStack.append(type.flatMap { $0.isInputType ? $0 : nil })
    }
    func popInputType() {
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }
}
