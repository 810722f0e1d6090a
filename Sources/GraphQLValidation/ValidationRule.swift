import GraphQLEngine
import GraphQLLanguage

/// A validation rule: hooks the ``DocumentWalker`` calls as it enters and leaves
/// each kind of node, with the ``ValidationContext`` telling the rule where it is.
///
/// This is graphql-js's visitor-per-rule design: every rule sees the document in
/// one traversal (`visitInParallel`), so errors come out in document order, and
/// no rule walks the document on its own. Hooks default to doing nothing; a rule
/// overrides the ones it needs.
class ValidationRule {
    /// `unowned(unsafe)`: the context creates the rules and outlives them (both live
    /// only during ``Validator/validate(schema:document:source:options:)``), and a
    /// checked `unowned` reference costs an atomic retain and release on every access.
    unowned(unsafe) let context: ValidationContext
    /// The context's TypeInfo, held directly: rules read it at nearly every node.
    let typeInfo: TypeInfo

    required init(context: ValidationContext) {
        self.context = context
        self.typeInfo = context.typeInfo
    }

    /// The kinds of node whose hooks this rule overrides. The walker calls a rule only
    /// for these, so a node costs as many calls as rules that care about it (the
    /// default, every kind, is correct but slow).
    class var hooks: Hooks { .all }

    /// Kinds of node, for ``hooks``; enter and leave hooks of one kind share a flag.
    struct Hooks: OptionSet {
        let rawValue: UInt32
        static let document = Hooks(rawValue: 1 << 0)
        static let operation = Hooks(rawValue: 1 << 1)
        static let fragmentDefinition = Hooks(rawValue: 1 << 2)
        static let variableDefinition = Hooks(rawValue: 1 << 3)
        static let namedType = Hooks(rawValue: 1 << 4)
        static let selectionSet = Hooks(rawValue: 1 << 5)
        static let field = Hooks(rawValue: 1 << 6)
        static let fragmentSpread = Hooks(rawValue: 1 << 7)
        static let inlineFragment = Hooks(rawValue: 1 << 8)
        static let directives = Hooks(rawValue: 1 << 9)
        static let directive = Hooks(rawValue: 1 << 10)
        static let argument = Hooks(rawValue: 1 << 11)
        static let value = Hooks(rawValue: 1 << 12)
        static let objectField = Hooks(rawValue: 1 << 13)
        static let all = Hooks(rawValue: .max)
    }

    var schema: GraphQLSchema { context.schema }

    /// Reports an error with the locations of `ranges`.
    func report(_ message: String, _ ranges: SourceRange...) { context.report(message, ranges) }
    func report(_ message: String, ranges: [SourceRange]) { context.report(message, ranges) }

    func enterDocument(_ document: Document) {}
    func leaveDocument(_ document: Document) {}
    func enterOperation(_ operation: OperationDefinition) {}
    func leaveOperation(_ operation: OperationDefinition) {}
    func enterFragmentDefinition(_ fragment: FragmentDefinition) {}
    func leaveFragmentDefinition(_ fragment: FragmentDefinition) {}
    func enterVariableDefinition(_ definition: VariableDefinition) {}
    /// A type named in a variable definition or a type condition.
    func enterNamedType(_ type: NamedType) {}
    func enterSelectionSet(_ selectionSet: SelectionSet) {}
    func enterField(_ field: Field) {}
    func leaveField(_ field: Field) {}
    func enterFragmentSpread(_ spread: FragmentSpread) {}
    func enterInlineFragment(_ fragment: InlineFragment) {}
    /// The directives of a node, before each is entered.
    func enterDirectives(_ directives: [Directive]) {}
    func enterDirective(_ directive: Directive, location: DirectiveLocation) {}
    func leaveDirective(_ directive: Directive) {}
    func enterArgument(_ argument: Argument) {}
    /// Any input value except a variable definition's own variable.
    func enterValue(_ value: Value) {}
    func leaveValue(_ value: Value) {}
    func enterObjectField(_ field: ObjectField) {}
}
