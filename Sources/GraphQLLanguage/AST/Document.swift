/// A parsed GraphQL document (§2.2): executable definitions, type-system
/// definitions and extensions, in source order.
///
/// The AST is made of value types. Every node has a `range` into its ``Source``
/// (``SourceRange/none`` when parsed with ``ParseOptions/noLocation``). Nodes
/// are `Hashable`, so two documents parsed without locations compare equal
/// exactly when they are the same GraphQL.
public struct Document: Sendable, Hashable {
    public var definitions: [Definition]
    public var range: SourceRange

    public init(definitions: [Definition], range: SourceRange = .none) {
        self.definitions = definitions
        self.range = range
    }

    /// The operations of the document, in order.
    public var operations: [OperationDefinition] {
        definitions.compactMap { if case .operation(let op) = $0 { op } else { nil } }
    }

    /// The fragment definitions of the document, in order.
    public var fragments: [FragmentDefinition] {
        definitions.compactMap { if case .fragment(let f) = $0 { f } else { nil } }
    }
}

/// One top-level definition (§2.2 Definition).
public enum Definition: Sendable, Hashable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    case schema(SchemaDefinition)
    case type(TypeDefinition)
    case directive(DirectiveDefinition)
    case schemaExtension(SchemaExtension)
    case typeExtension(TypeExtension)

    public var range: SourceRange {
        switch self {
        case .operation(let d): d.range
        case .fragment(let d): d.range
        case .schema(let d): d.range
        case .type(let d): d.range
        case .directive(let d): d.range
        case .schemaExtension(let d): d.range
        case .typeExtension(let d): d.range
        }
    }

    /// True for operations and fragments (§5.1.1 Executable Definitions).
    public var isExecutable: Bool {
        switch self {
        case .operation, .fragment: true
        default: false
        }
    }
}

/// A name token (§2.1.9) with its position.
public struct Name: Sendable, Hashable, CustomStringConvertible {
    public var value: String
    public var range: SourceRange

    public init(_ value: String, range: SourceRange = .none) {
        self.value = value
        self.range = range
    }

    public var description: String { value }
}

extension Name {
    /// A name's start, for nodes that store a name as its value and this start
    /// (``Field``, ``Argument``, ``ObjectField``, ``Variable``) instead of a whole
    /// `Name`: four bytes instead of twelve, placed where the node has padding.
    /// Those are the most numerous nodes: this makes `Argument` and `ObjectField`
    /// 48 bytes instead of 56, and `Field` (which packs its selection set too) 72
    /// instead of 88.
    ///
    /// The end is not stored: a name has no escapes, so it ends `value.utf8.count`
    /// bytes after its start. ``SourceRange/none`` (documents parsed with
    /// ``ParseOptions/noLocation``, and names made without a range) is kept as
    /// `UInt32.max`, which no name starts at, so that it reads back as `.none`.
    /// Any other range reads back with its end recomputed from the value.
    @inline(__always)
    static func packedStart(of range: SourceRange) -> UInt32 {
        range == .none ? UInt32.max : UInt32(truncatingIfNeeded: range.start)
    }

    /// The name whose value is `value` and whose start was packed by ``packedStart(of:)``.
    @inline(__always)
    init(value: String, packedStart: UInt32) {
        self.init(
            value,
            range: packedStart == UInt32.max
                ? .none : SourceRange(start: Int(packedStart), end: Int(packedStart) + value.utf8.count))
    }
}
