// Views of a SyntaxTree's type-system definitions and extensions (§3).

/// `SchemaDefinition` (§3.3), or a `SchemaExtension` (§3.3.2, no description).
public struct SchemaDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: SchemaRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
    public var operationTypes: SyntaxList<OperationTypeDefinitionSyntax> { SyntaxList(tree, record.operationTypes) }
}

/// `RootOperationTypeDefinition` (§3.3.1): `query: Query`.
public struct OperationTypeDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: OperationTypeRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var operation: OperationType { record.operation }
    public var type: NameSyntax { NameSyntax(tree, record.type) }
}

/// A type definition (§3.4) or a type extension (§3.4.3, no description).
public struct TypeDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: TypeDefinitionRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    /// Which type, with what only that kind has.
    public enum Kind: Sendable {
        case scalar
        case object(fields: SyntaxList<FieldDefinitionSyntax>)
        case interface(fields: SyntaxList<FieldDefinitionSyntax>)
        case union(types: SyntaxList<NameSyntax>)
        case enumType(values: SyntaxList<EnumValueDefinitionSyntax>)
        case inputObject(fields: SyntaxList<InputValueDefinitionSyntax>)
    }

    public var kind: Kind {
        switch record.keyword {
        case .scalar: .scalar
        case .type: .object(fields: SyntaxList(tree, record.members))
        case .interface: .interface(fields: SyntaxList(tree, record.members))
        case .union: .union(types: SyntaxList(tree, record.members))
        case .enum: .enumType(values: SyntaxList(tree, record.members))
        case .input: .inputObject(fields: SyntaxList(tree, record.members))
        }
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    /// `implements A & B` (objects and interfaces; empty for the other kinds).
    public var interfaces: SyntaxList<NameSyntax> { SyntaxList(tree, record.interfaces) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
}

/// `FieldDefinition` (§3.6): `name(arguments): Type @directives`.
public struct FieldDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: FieldDefinitionRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var arguments: SyntaxList<InputValueDefinitionSyntax> { SyntaxList(tree, record.arguments) }
    public var type: TypeReferenceSyntax { TypeReferenceSyntax(at: SyntaxPosition(tree, record.type)) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
}

/// `InputValueDefinition` (§3.6.1): an argument or an input field.
public struct InputValueDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: InputValueRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var type: TypeReferenceSyntax { TypeReferenceSyntax(at: SyntaxPosition(tree, record.type)) }
    public var defaultValue: ValueSyntax? {
        record.defaultValue == .none ? nil : ValueSyntax(at: SyntaxPosition(tree, record.defaultValue))
    }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
}

/// `EnumValueDefinition` (§3.9).
public struct EnumValueDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: EnumValueRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var directives: SyntaxList<DirectiveSyntax> { SyntaxList(tree, record.directives) }
}

/// `DirectiveDefinition` (§3.13): `directive @name(arguments) repeatable on LOCATIONS`.
public struct DirectiveDefinitionSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: DirectiveDefinitionRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
    public var description: StringValueSyntax? { StringValueSyntax.optional(tree, record.description) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var arguments: SyntaxList<InputValueDefinitionSyntax> { SyntaxList(tree, record.arguments) }
    public var isRepeatable: Bool { record.isRepeatable }
    /// The locations' names, as written (each one of ``DirectiveLocation``).
    public var locations: SyntaxList<NameSyntax> { SyntaxList(tree, record.locations) }
}
