// The records a ``SyntaxTree`` stores its nodes as: plain values of 4-byte fields,
// with no `String`, array or reference in them, so that a tree is one region of
// memory that is written once and freed at once. A record refers to another by
// its byte offset in the region (``NodeRef``), to a list by offset and count
// (``ListRef``), and to a name by its place in the source (``NameRef``).

extension SourceRange {
    /// The range between two offsets as records store them.
    @inline(__always)
    init(_ start: UInt32, _ end: UInt32) {
        self.init(start: Int(start), end: Int(end))
    }
}

/// A record's byte offset in its tree's region; ``NodeRef/none`` when absent.
typealias NodeRef = UInt32

extension NodeRef {
    static let none = UInt32.max
}

/// A list of records, contiguous in the region: the first one's offset and the count.
struct ListRef: Sendable {
    var offset: UInt32
    var count: UInt32
    static let empty = ListRef(offset: 0, count: 0)
}

/// A name, as its place in the source. A name is never empty, so a count of
/// zero stands for an absent one.
struct NameRef: Sendable {
    var start: UInt32
    var count: UInt32
    static let none = NameRef(start: 0, count: 0)
    var isNone: Bool { count == 0 }
    var end: Int { Int(start) + Int(count) }
}

/// A selection set's braces and selections (stored inside the record that has it).
struct SelectionSetRecord {
    var start: UInt32
    var end: UInt32
    var selections: ListRef
    /// A field without a selection set.
    static let none = SelectionSetRecord(start: UInt32.max, end: 0, selections: .empty)
    var isNone: Bool { start == UInt32.max }
}

enum DefinitionKind: UInt32 {
    case operation, fragment, schema, schemaExtension, type, typeExtension, directive
}

struct DefinitionRecord {
    var kind: DefinitionKind
    var node: NodeRef
}

struct OperationRecord {
    var start: UInt32
    var end: UInt32
    var operation: OperationType
    var description: NodeRef
    var name: NameRef
    var variables: ListRef
    var directives: ListRef
    var selectionSet: SelectionSetRecord
}

struct VariableDefinitionRecord {
    var start: UInt32
    var end: UInt32
    var description: NodeRef
    /// The `$`.
    var variableStart: UInt32
    var name: NameRef
    var type: NodeRef
    var defaultValue: NodeRef
    var directives: ListRef
}

enum SelectionKind: UInt32 {
    case field, fragmentSpread, inlineFragment
}

struct SelectionRecord {
    var kind: SelectionKind
    var node: NodeRef
}

struct FieldRecord {
    var alias: NameRef
    var name: NameRef
    var arguments: ListRef
    var directives: ListRef
    var selectionSet: SelectionSetRecord
    var end: UInt32
}

struct FragmentSpreadRecord {
    var start: UInt32
    var end: UInt32
    var name: NameRef
    var directives: ListRef
}

struct InlineFragmentRecord {
    var start: UInt32
    var end: UInt32
    var typeCondition: NameRef
    var directives: ListRef
    var selectionSet: SelectionSetRecord
}

struct FragmentDefinitionRecord {
    var start: UInt32
    var end: UInt32
    var description: NodeRef
    var name: NameRef
    var typeCondition: NameRef
    var directives: ListRef
    var selectionSet: SelectionSetRecord
}

struct ArgumentRecord {
    var name: NameRef
    var value: ValueRecord
}

struct DirectiveRecord {
    var start: UInt32
    var end: UInt32
    var name: NameRef
    var arguments: ListRef
}

enum ValueKind: UInt32 {
    case variable, int, float, string, blockString, `true`, `false`, null, enumValue, list, object
}

/// A value literal. What `payload` holds depends on the kind: a list's or an
/// object's items; a string's index in the tree's cooked strings (`offset`); a
/// variable's name (`offset` is the name's start, `count` its length). Numbers
/// and enum values are their text, `start..<end`.
struct ValueRecord {
    var kind: ValueKind
    var start: UInt32
    var end: UInt32
    var payload: ListRef
}

struct ObjectFieldRecord {
    var name: NameRef
    var value: ValueRecord
}

enum TypeReferenceKind: UInt32 {
    case named, list, nonNull
}

/// A type reference: a named type's name, or the type a list or non-null wraps.
struct TypeReferenceRecord {
    var kind: TypeReferenceKind
    var start: UInt32
    var end: UInt32
    var name: NameRef
    var inner: NodeRef
}

struct SchemaRecord {
    var start: UInt32
    var end: UInt32
    var description: NodeRef
    var directives: ListRef
    var operationTypes: ListRef
}

struct OperationTypeRecord {
    var start: UInt32
    var end: UInt32
    var operation: OperationType
    var type: NameRef
}

/// Any of the six type definitions or their extensions. `members` holds the
/// fields (object, interface: ``FieldDefinitionRecord``; input: ``InputValueRecord``),
/// the values (enum: ``EnumValueRecord``) or the member types (union: ``NameRef``).
struct TypeDefinitionRecord {
    var keyword: TypeKeyword
    var start: UInt32
    var end: UInt32
    var description: NodeRef
    var name: NameRef
    var interfaces: ListRef
    var directives: ListRef
    var members: ListRef
}

struct FieldDefinitionRecord {
    var start: UInt32
    var end: UInt32
    var description: NodeRef
    var name: NameRef
    var arguments: ListRef
    var type: NodeRef
    var directives: ListRef
}

struct InputValueRecord {
    var start: UInt32
    var end: UInt32
    var description: NodeRef
    var name: NameRef
    var type: NodeRef
    var defaultValue: NodeRef
    var directives: ListRef
}

struct EnumValueRecord {
    var start: UInt32
    var end: UInt32
    var description: NodeRef
    var name: NameRef
    var directives: ListRef
}

struct DirectiveDefinitionRecord {
    var start: UInt32
    var end: UInt32
    var description: NodeRef
    var name: NameRef
    var arguments: ListRef
    var isRepeatable: Bool
    var locations: ListRef
}
