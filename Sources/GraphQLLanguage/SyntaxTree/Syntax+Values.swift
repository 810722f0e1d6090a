// Views of a SyntaxTree's values (§2.9) and type references (§2.11).

/// A value literal (§2.9), or a variable where the grammar allows one.
public struct ValueSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: ValueRecord

    init(_ tree: SyntaxTree, _ record: ValueRecord) {
        self.tree = tree
        self.record = record
    }

    public init(at position: SyntaxPosition) { self.init(position.tree, position.record()) }

    /// What the value is, with its parts.
    public enum Kind: Sendable {
        /// `$name`: the name without the `$`.
        case variable(NameSyntax)
        /// The literal's text, as written.
        case int(String)
        case float(String)
        case string(StringValueSyntax)
        case boolean(Bool)
        case null
        case enumValue(String)
        case list(SyntaxList<ValueSyntax>)
        case object(SyntaxList<ObjectFieldSyntax>)
    }

    public var kind: Kind {
        switch record.kind {
        case .variable: .variable(NameSyntax(tree, NameRef(start: record.payload.offset, count: record.payload.count)))
        case .int: .int(text)
        case .float: .float(text)
        case .string, .blockString: .string(StringValueSyntax(tree, record))
        case .true: .boolean(true)
        case .false: .boolean(false)
        case .null: .null
        case .enumValue: .enumValue(text)
        case .list: .list(SyntaxList(tree, record.payload))
        case .object: .object(SyntaxList(tree, record.payload))
        }
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }

    private var text: String { tree.text(Int(record.start), Int(record.end)) }
}

/// A string literal or block string (§2.9.4), with its value cooked.
public struct StringValueSyntax: Sendable {
    public let tree: SyntaxTree
    let record: ValueRecord

    init(_ tree: SyntaxTree, _ record: ValueRecord) {
        self.tree = tree
        self.record = record
    }

    /// Descriptions are optional.
    static func optional(_ tree: SyntaxTree, _ node: NodeRef) -> StringValueSyntax? {
        node == .none ? nil : StringValueSyntax(tree, tree.region.record(node))
    }

    /// The value: escapes resolved, a block string's indentation removed.
    public var value: String { tree.strings[Int(record.payload.offset)] }
    public var isBlock: Bool { record.kind == .blockString }
    public var range: SourceRange { SourceRange(record.start, record.end) }
}

/// `ObjectField` (§2.9.8): `name: value`.
public struct ObjectFieldSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: ObjectFieldRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public var range: SourceRange { SourceRange(start: Int(record.name.start), end: Int(record.value.end)) }
    public var name: NameSyntax { NameSyntax(tree, record.name) }
    public var value: ValueSyntax { ValueSyntax(tree, record.value) }
}

/// A type reference (§2.11): `Name`, `[Type]` or `Type!`.
public struct TypeReferenceSyntax: SyntaxNode {
    public let tree: SyntaxTree
    let record: TypeReferenceRecord

    public init(at position: SyntaxPosition) {
        tree = position.tree
        record = position.record()
    }

    public enum Kind: Sendable {
        case named(NameSyntax)
        case list(TypeReferenceSyntax)
        case nonNull(TypeReferenceSyntax)
    }

    public var kind: Kind {
        switch record.kind {
        case .named: .named(NameSyntax(tree, record.name))
        case .list: .list(TypeReferenceSyntax(at: SyntaxPosition(tree, record.inner)))
        case .nonNull: .nonNull(TypeReferenceSyntax(at: SyntaxPosition(tree, record.inner)))
        }
    }

    public var range: SourceRange { SourceRange(record.start, record.end) }
}
