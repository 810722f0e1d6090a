// Views of a SyntaxTree's definitions and of its executable nodes (§2.3-§2.8).
// Each view is a tree and a copy of its record; properties read the record and
// make views of its children.

/// One top-level definition (§2.2 Definition).
public enum DefinitionSyntax: SyntaxNode {
    case operation(OperationDefinitionSyntax)
    case fragment(FragmentDefinitionSyntax)
    case schema(SchemaDefinitionSyntax)
    case type(TypeDefinitionSyntax)
    case directive(DirectiveDefinitionSyntax)
    case schemaExtension(SchemaDefinitionSyntax)
    case typeExtension(TypeDefinitionSyntax)

    public init(at position: SyntaxPosition) {
        let record = position.record(as: DefinitionRecord.self)
        let node = SyntaxPosition(position.tree, record.node)
        switch record.kind {
        case .operation: self = .operation(OperationDefinitionSyntax(at: node))
        case .fragment: self = .fragment(FragmentDefinitionSyntax(at: node))
        case .schema: self = .schema(SchemaDefinitionSyntax(at: node))
        case .type: self = .type(TypeDefinitionSyntax(at: node))
        case .directive: self = .directive(DirectiveDefinitionSyntax(at: node))
        case .schemaExtension: self = .schemaExtension(SchemaDefinitionSyntax(at: node))
        case .typeExtension: self = .typeExtension(TypeDefinitionSyntax(at: node))
        }
    }

    public var range: SourceRange {
        switch self {
        case .operation(let d): d.range
        case .fragment(let d): d.range
        case .schema(let d), .schemaExtension(let d): d.range
        case .type(let d), .typeExtension(let d): d.range
        case .directive(let d): d.range
        }
    }
}

/// `OperationDefinition` (§2.3); a shorthand `{ ... }` is an unnamed query.
public struct OperationDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: OperationRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    public var operation: OperationType { record.operation }
    public var name: NameSyntax? { NameSyntax.optional(tree, record.name) }
    public var variableDefinitions: SyntaxList<VariableDefinitionSyntax> { SyntaxList(tree, record.variables) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
    public var selectionSet: SelectionSetSyntax { SelectionSetSyntax(tree, record.selectionSet) }
}

/// `VariableDefinition` (§2.10): `$name: Type = default @directives`.
public struct VariableDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: VariableDefinitionRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    /// The variable's name, without the `$`.
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    /// From the `$` to the end of the name.
    public var variableRange: SourceRange { SourceRange(start: Int(record.variableStart), end: record.name.end) }
    public var type: TypeReferenceSyntax { TypeReferenceSyntax(at: SyntaxPosition(tree, record.type)) }
    public var defaultValue: ValueSyntax? {
        record.defaultValue == .none ? nil : ValueSyntax(at: SyntaxPosition(tree, record.defaultValue))
    }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
}

/// `SelectionSet` (§2.4): `{ selections }`.
public struct SelectionSetSyntax: Sendable {
    public let tree: SyntaxTree
    let record: SelectionSetRecord

    init(_ tree: SyntaxTree, _ record: SelectionSetRecord) {
        self.tree = tree
        self.record = record
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var selections: SyntaxList<SelectionSyntax> { SyntaxList(tree, record.selections) }
}

/// `Selection` (§2.4).
public enum SelectionSyntax: SyntaxNode {
    case field(FieldSyntax)
    case fragmentSpread(FragmentSpreadSyntax)
    case inlineFragment(InlineFragmentSyntax)

    public init(at position: SyntaxPosition) {
        let record = position.record(as: SelectionRecord.self)
        let node = SyntaxPosition(position.tree, record.node)
        switch record.kind {
        case .field: self = .field(FieldSyntax(at: node))
        case .fragmentSpread: self = .fragmentSpread(FragmentSpreadSyntax(at: node))
        case .inlineFragment: self = .inlineFragment(InlineFragmentSyntax(at: node))
        }
    }

    public var range: SourceRange {
        switch self {
        case .field(let s): s.range
        case .fragmentSpread(let s): s.range
        case .inlineFragment(let s): s.range
        }
    }
}

/// `Field` (§2.5): `alias: name(arguments) @directives { selections }`.
public struct FieldSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: FieldRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange {
        SourceRange(start: Int(record.alias.isNone ? record.name.start : record.alias.start), end: Int(record.end))
    }
    public var alias: NameSyntax? { NameSyntax.optional(tree, record.alias) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var arguments: SyntaxList<ArgumentSyntax> { SyntaxList(tree, record.arguments) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
    public var selectionSet: SelectionSetSyntax? {
        record.selectionSet.isNone ? nil : SelectionSetSyntax(tree, record.selectionSet)
    }
}

/// `Argument` (§2.6): `name: value`.
public struct ArgumentSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: ArgumentRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(start: Int(record.name.start), end: Int(record.value.end)) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var value: ValueSyntax { ValueSyntax(tree, record.value) }
}

/// `FragmentSpread` (§2.8): `...Name @directives`.
public struct FragmentSpreadSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: FragmentSpreadRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
}

/// `InlineFragment` (§2.8.2): `... on Type @directives { selections }`.
public struct InlineFragmentSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: InlineFragmentRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var typeCondition: NameSyntax? { NameSyntax.optional(tree, record.typeCondition) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
    public var selectionSet: SelectionSetSyntax { SelectionSetSyntax(tree, record.selectionSet) }
}

/// `FragmentDefinition` (§2.8): `fragment Name on Type @directives { selections }`.
public struct FragmentDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: FragmentDefinitionRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var typeCondition: NameSyntax { NameSyntax(tree, record.typeCondition) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
    public var selectionSet: SelectionSetSyntax { SelectionSetSyntax(tree, record.selectionSet) }
}

/// `Directive` (§2.12): `@name(arguments)`.
public struct DirectiveSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: DirectiveRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var arguments: SyntaxList<ArgumentSyntax> { SyntaxList(tree, record.arguments) }
}
