/// SchemaDefinition (§3.3): `Description? schema Directives? { RootOperationTypeDefinition+ }`.
public struct SchemaDefinition: Sendable, Hashable {
    public var description: StringValue?
    public var directives: [Directive]
    public var operationTypes: [RootOperationTypeDefinition]
    public var range: SourceRange

    public init(
        description: StringValue? = nil, directives: [Directive] = [],
        operationTypes: [RootOperationTypeDefinition], range: SourceRange = .none
    ) {
        self.description = description
        self.directives = directives
        self.operationTypes = operationTypes
        self.range = range
    }
}

/// SchemaExtension (§3.3.2): `extend schema Directives? { RootOperationTypeDefinition+ }`.
public struct SchemaExtension: Sendable, Hashable {
    public var directives: [Directive]
    public var operationTypes: [RootOperationTypeDefinition]
    public var range: SourceRange

    public init(directives: [Directive] = [], operationTypes: [RootOperationTypeDefinition] = [], range: SourceRange = .none) {
        self.directives = directives
        self.operationTypes = operationTypes
        self.range = range
    }
}

/// RootOperationTypeDefinition (§3.3.1): `OperationType : NamedType`.
public struct RootOperationTypeDefinition: Sendable, Hashable {
    public var operation: OperationType
    public var type: NamedType
    public var range: SourceRange

    public init(operation: OperationType, type: NamedType, range: SourceRange = .none) {
        self.operation = operation
        self.type = type
        self.range = range
    }
}

/// A type definition (§3.4), or — inside ``TypeExtension`` — the parts an
/// extension adds (an extension never has a description).
public enum TypeDefinition: Sendable, Hashable {
    case scalar(ScalarTypeDefinition)
    case object(ObjectTypeDefinition)
    case interface(InterfaceTypeDefinition)
    case union(UnionTypeDefinition)
    case enumType(EnumTypeDefinition)
    case inputObject(InputObjectTypeDefinition)

    public var name: Name {
        switch self {
        case .scalar(let t): t.name
        case .object(let t): t.name
        case .interface(let t): t.name
        case .union(let t): t.name
        case .enumType(let t): t.name
        case .inputObject(let t): t.name
        }
    }

    public var range: SourceRange {
        switch self {
        case .scalar(let t): t.range
        case .object(let t): t.range
        case .interface(let t): t.range
        case .union(let t): t.range
        case .enumType(let t): t.range
        case .inputObject(let t): t.range
        }
    }

    public var directives: [Directive] {
        switch self {
        case .scalar(let t): t.directives
        case .object(let t): t.directives
        case .interface(let t): t.directives
        case .union(let t): t.directives
        case .enumType(let t): t.directives
        case .inputObject(let t): t.directives
        }
    }
}

/// A type extension (§3.4.3): `extend scalar|type|interface|union|enum|input ...`.
/// It carries the same parts as the definition it extends, without a description.
public struct TypeExtension: Sendable, Hashable {
    public var definition: TypeDefinition

    public init(_ definition: TypeDefinition) { self.definition = definition }

    public var name: Name { definition.name }
    public var range: SourceRange { definition.range }
}

/// ScalarTypeDefinition (§3.5): `Description? scalar Name Directives?`.
public struct ScalarTypeDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
}

extension ScalarTypeDefinition {
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], range: SourceRange = .none) {
        self.init(range: range, description: description, name: name, directives: directives)
    }
}

/// ObjectTypeDefinition (§3.6): `Description? type Name ImplementsInterfaces? Directives? FieldsDefinition?`.
public struct ObjectTypeDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
}

extension ObjectTypeDefinition {
    public init(
        description: StringValue? = nil, name: Name, interfaces: [NamedType] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, interfaces: interfaces, directives: directives, fields: fields)
    }
}

/// InterfaceTypeDefinition (§3.7): same shape as an object type.
public typealias InterfaceTypeDefinition = ObjectTypeDefinition

/// FieldDefinition (§3.6): `Description? Name ArgumentsDefinition? : Type Directives?`.
public struct FieldDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var type: TypeReference
    public var directives: [Directive]
}

extension FieldDefinition {
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [], type: TypeReference,
        directives: [Directive] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, arguments: arguments, type: type, directives: directives)
    }
}

/// InputValueDefinition (§3.6.1): `Description? Name : Type DefaultValue? Directives?`,
/// used for arguments and input object fields.
public struct InputValueDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
}

extension InputValueDefinition {
    public init(
        description: StringValue? = nil, name: Name, type: TypeReference, defaultValue: Value? = nil,
        directives: [Directive] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, type: type, defaultValue: defaultValue, directives: directives)
    }
}

/// UnionTypeDefinition (§3.8): `Description? union Name Directives? UnionMemberTypes?`.
public struct UnionTypeDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var types: [NamedType]
}

extension UnionTypeDefinition {
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], types: [NamedType] = [],
        range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, directives: directives, types: types)
    }
}

/// EnumTypeDefinition (§3.9): `Description? enum Name Directives? EnumValuesDefinition?`.
public struct EnumTypeDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
}

extension EnumTypeDefinition {
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        values: [EnumValueDefinition] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, directives: directives, values: values)
    }
}

/// EnumValueDefinition (§3.9): `Description? EnumValue Directives?`.
public struct EnumValueDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
}

extension EnumValueDefinition {
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], range: SourceRange = .none) {
        self.init(range: range, description: description, name: name, directives: directives)
    }
}

/// InputObjectTypeDefinition (§3.10): `Description? input Name Directives? InputFieldsDefinition?`.
public struct InputObjectTypeDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
}

extension InputObjectTypeDefinition {
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        fields: [InputValueDefinition] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, directives: directives, fields: fields)
    }
}

/// DirectiveDefinition (§3.13): `Description? directive @ Name ArgumentsDefinition? repeatable? on DirectiveLocations`.
public struct DirectiveDefinition: Sendable, Hashable {
    // `range` first, for a memberwise initializer the parser can use (see ``OperationDefinition``).
    public var range: SourceRange
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var isRepeatable: Bool
    public var locations: [Name]
}

extension DirectiveDefinition {
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        isRepeatable: Bool = false, locations: [Name], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, arguments: arguments, isRepeatable: isRepeatable, locations: locations)
    }
}

/// DirectiveLocation (§3.13): where a directive may appear.
public enum DirectiveLocation: String, Sendable, Hashable, CaseIterable {
    // ExecutableDirectiveLocation
    case query = "QUERY"
    case mutation = "MUTATION"
    case subscription = "SUBSCRIPTION"
    case field = "FIELD"
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    case fragmentSpread = "FRAGMENT_SPREAD"
    case inlineFragment = "INLINE_FRAGMENT"
    case variableDefinition = "VARIABLE_DEFINITION"
    // TypeSystemDirectiveLocation
    case schema = "SCHEMA"
    case scalar = "SCALAR"
    case object = "OBJECT"
    case fieldDefinition = "FIELD_DEFINITION"
    case argumentDefinition = "ARGUMENT_DEFINITION"
    case interface = "INTERFACE"
    case union = "UNION"
    case enumType = "ENUM"
    case enumValue = "ENUM_VALUE"
    case inputObject = "INPUT_OBJECT"
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
}

extension DirectiveLocation {
    /// The spellings of all locations, looked up without `init(rawValue:)`, whose
    /// string switch goes through a runtime cache on every call.
    private static let names: Set<String> = Set(allCases.map(\.rawValue))

    /// Whether `name` is one of the locations (§3.13 DirectiveLocation).
    static func isLocation(_ name: String) -> Bool { names.contains(name) }
}
