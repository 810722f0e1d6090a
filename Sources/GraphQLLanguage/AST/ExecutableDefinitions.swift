/// `query`, `mutation` or `subscription` (§2.3).
public enum OperationType: String, Sendable, Hashable, CaseIterable {
    case query, mutation, subscription
}

/// OperationDefinition (§2.3): `Description? OperationType Name? VariablesDefinition? Directives? SelectionSet`,
/// or the query shorthand `SelectionSet`.
public struct OperationDefinition: Sendable, Hashable {
    // `range` first: the synthesized memberwise initializer, `init(range:description:...)`,
    // then differs from the public one (in the extension below), and the parser uses
    // it, which the optimizer builds in place (the public one made a copy of the
    // node, retaining each array, and destroyed the original).
    public var range: SourceRange
    public var description: StringValue?
    public var operation: OperationType
    public var name: Name?
    public var variableDefinitions: [VariableDefinition]
    public var directives: [Directive]
    public var selectionSet: SelectionSet
}

extension OperationDefinition {
    public init(
        description: StringValue? = nil, operation: OperationType, name: Name? = nil,
        variableDefinitions: [VariableDefinition] = [], directives: [Directive] = [],
        selectionSet: SelectionSet, range: SourceRange = .none
    ) {
        self.init(
            range: range, description: description, operation: operation, name: name,
            variableDefinitions: variableDefinitions, directives: directives, selectionSet: selectionSet)
    }
}

/// VariableDefinition (§2.10): `Description? Variable : Type DefaultValue? Directives[Const]?`.
public struct VariableDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var variable: Variable
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
}

extension VariableDefinition {
    public init(
        description: StringValue? = nil, variable: Variable, type: TypeReference, defaultValue: Value? = nil,
        directives: [Directive] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, variable: variable, type: type, defaultValue: defaultValue, directives: directives)
    }
}

/// SelectionSet (§2.4): `{ Selection+ }`.
public struct SelectionSet: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var selections: [Selection]
}

extension SelectionSet {
    public init(selections: [Selection], range: SourceRange = .none) {
        self.init(range: range, selections: selections)
    }
}

/// Selection (§2.4): a field, a fragment spread or an inline fragment.
public enum Selection: Sendable, Hashable {
    case field(Field)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)

    public var range: SourceRange {
        switch self {
        case .field(let s): s.range
        case .fragmentSpread(let s): s.range
        case .inlineFragment(let s): s.range
        }
    }

    public var directives: [Directive] {
        switch self {
        case .field(let s): s.directives
        case .fragmentSpread(let s): s.directives
        case .inlineFragment(let s): s.directives
        }
    }
}

/// Field (§2.5): `Alias? Name Arguments? Directives? SelectionSet?`.
public struct Field: Sendable, Hashable {
    // Fields are the most numerous nodes of a query, so they are stored tight
    // (72 bytes, where two `Name`s and a `SelectionSet?` made 88): the alias and
    // the name as their values and starts (``Name/packedStart(of:)``), and the
    // selection set as its selections and start, since it ends where the field
    // ends. The four-byte fields sit side by side.
    var aliasValue: String?
    var aliasStart: UInt32
    var nameStart: UInt32
    var nameValue: String
    public var arguments: [Argument]
    public var directives: [Directive]
    /// The selection set's selections (empty without one).
    var selections: [Selection]
    /// Where the selection set starts: ``Field/noSelectionSet`` without one, and
    /// ``Field/selectionSetWithoutRange`` for one whose range is `.none`.
    var selectionSetStart: UInt32
    /// Where the field ends. Only the end is stored: a field starts at its alias,
    /// or its name. Read it through ``range``.
    var storedEnd: UInt32

    static var noSelectionSet: UInt32 { UInt32.max }
    static var selectionSetWithoutRange: UInt32 { UInt32.max - 1 }

    /// The field's selections, if its type is an object, interface or union
    /// (`{ ... }`). Its range ends where the field ends: setting one keeps its
    /// start (or `.none`) and its selections, not its end.
    public var selectionSet: SelectionSet? {
        get {
            switch selectionSetStart {
            case Field.noSelectionSet: nil
            case Field.selectionSetWithoutRange: SelectionSet(range: .none, selections: selections)
            default: SelectionSet(range: SourceRange(start: Int(selectionSetStart), end: Int(storedEnd)), selections: selections)
            }
        }
        set {
            selections = newValue?.selections ?? []
            selectionSetStart = Field.packedStart(of: newValue)
        }
    }

    /// How ``selectionSetStart`` records `selectionSet`.
    static func packedStart(of selectionSet: SelectionSet?) -> UInt32 {
        guard let selectionSet else { return Field.noSelectionSet }
        return selectionSet.range == .none ? Field.selectionSetWithoutRange : UInt32(truncatingIfNeeded: selectionSet.range.start)
    }

    /// The alias, if the field has one (`alias: name`).
    public var alias: Name? {
        get { aliasValue.map { Name(value: $0, packedStart: aliasStart) } }
        set {
            aliasValue = newValue?.value
            aliasStart = newValue.map { Name.packedStart(of: $0.range) } ?? UInt32.max
        }
    }

    /// The name of the field in its parent type.
    public var name: Name {
        get { Name(value: nameValue, packedStart: nameStart) }
        set {
            nameValue = newValue.value
            nameStart = Name.packedStart(of: newValue.range)
        }
    }

    /// From the alias (or the name) to the end of the field (setting it keeps only the end).
    public var range: SourceRange {
        get { SourceRange(start: alias?.range.start ?? name.range.start, end: Int(storedEnd)) }
        set { storedEnd = UInt32(truncatingIfNeeded: newValue.end) }
    }

    /// The key of this field in the response: the alias if any, else the name (§2.7).
    public var responseKey: String { aliasValue ?? nameValue }
}

extension Field {
    // In an extension, so that the parser can use the synthesized memberwise
    // initializer: with it the optimizer builds the field in place, where this one
    // made a copy (retaining every array and string) and destroyed the original.
    public init(
        alias: Name? = nil, name: Name, arguments: [Argument] = [], directives: [Directive] = [],
        selectionSet: SelectionSet? = nil, range: SourceRange = .none
    ) {
        self.init(
            aliasValue: alias?.value, aliasStart: alias.map { Name.packedStart(of: $0.range) } ?? UInt32.max,
            nameStart: Name.packedStart(of: name.range), nameValue: name.value,
            arguments: arguments, directives: directives,
            selections: selectionSet?.selections ?? [], selectionSetStart: Field.packedStart(of: selectionSet),
            storedEnd: UInt32(truncatingIfNeeded: range.end))
    }
}

/// Argument (§2.6): `Name : Value`.
public struct Argument: Sendable, Hashable {
    public var value: Value
    // The name as its start and value (``Name/packedStart(of:)``), the start in the
    // padding at the end of `value`: 48 bytes instead of 56, for one of the most
    // numerous nodes.
    var nameStart: UInt32
    var nameValue: String

    /// The argument's name.
    public var name: Name {
        get { Name(value: nameValue, packedStart: nameStart) }
        set {
            nameValue = newValue.value
            nameStart = Name.packedStart(of: newValue.range)
        }
    }

    /// From the name to the end of the value (derived, not stored: arguments are
    /// among the most numerous nodes).
    public var range: SourceRange { SourceRange(start: name.range.start, end: value.range.end) }
}

extension Argument {
    // In an extension, so that the parser can use the memberwise initializer.
    public init(name: Name, value: Value) {
        self.init(value: value, nameStart: Name.packedStart(of: name.range), nameValue: name.value)
    }
}

/// FragmentSpread (§2.8): `... FragmentName Directives?`.
public struct FragmentSpread: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var name: Name
    public var directives: [Directive]
}

extension FragmentSpread {
    public init(name: Name, directives: [Directive] = [], range: SourceRange = .none) {
        self.init(range: range, name: name, directives: directives)
    }
}

/// InlineFragment (§2.8.2): `... TypeCondition? Directives? SelectionSet`.
public struct InlineFragment: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var typeCondition: NamedType?
    public var directives: [Directive]
    public var selectionSet: SelectionSet
}

extension InlineFragment {
    public init(
        typeCondition: NamedType? = nil, directives: [Directive] = [], selectionSet: SelectionSet,
        range: SourceRange = .none
    ) {
        self.init(range: range, typeCondition: typeCondition, directives: directives, selectionSet: selectionSet)
    }
}

/// FragmentDefinition (§2.8): `Description? fragment FragmentName TypeCondition Directives? SelectionSet`.
public struct FragmentDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var typeCondition: NamedType
    public var directives: [Directive]
    public var selectionSet: SelectionSet
}

extension FragmentDefinition {
    public init(
        description: StringValue? = nil, name: Name, typeCondition: NamedType, directives: [Directive] = [],
        selectionSet: SelectionSet, range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, typeCondition: typeCondition, directives: directives, selectionSet: selectionSet)
    }
}

/// Directive (§2.12): `@ Name Arguments?`.
public struct Directive: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var name: Name
    public var arguments: [Argument]
}

extension Directive {
    public init(name: Name, arguments: [Argument] = [], range: SourceRange = .none) {
        self.init(range: range, name: name, arguments: arguments)
    }
}
