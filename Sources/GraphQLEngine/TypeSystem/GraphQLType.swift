import GraphQLLanguage

/// A type as fields and arguments reference it (§3.4): a named type, or a list or
/// non-null wrapper around one.
public indirect enum GraphQLType: Sendable, Hashable, CustomStringConvertible {
    case named(GraphQLNamedType)
    case list(GraphQLType)
    case nonNull(GraphQLType)

    /// The innermost named type: `Profile` for `[Profile!]!`.
    public var namedType: GraphQLNamedType {
        switch self {
        case .named(let t): t
        case .list(let t), .nonNull(let t): t.namedType
        }
    }

    public var isNonNull: Bool { if case .nonNull = self { true } else { false } }

    /// The type without its outer non-null wrapper.
    public var nullable: GraphQLType { if case .nonNull(let t) = self { t } else { self } }

    /// The type as written in SDL: `[Profile!]!`.
    public var description: String {
        switch self {
        case .named(let t): t.name
        case .list(let t): "[\(t)]"
        case .nonNull(let t): "\(t)!"
        }
    }

    /// IsInputType (§3.4.1): scalars, enums, input objects and wrappers of them.
    public var isInputType: Bool { namedType.isInputType }
    /// IsOutputType (§3.4.1): everything but input objects, and wrappers of them.
    public var isOutputType: Bool { namedType.isOutputType }
}

/// A named type of the schema (§3.4). Each case holds the type's one shared instance.
public enum GraphQLNamedType: Sendable, Hashable, CustomStringConvertible {
    case scalar(GraphQLScalarType)
    case object(GraphQLObjectType)
    case interface(GraphQLInterfaceType)
    case union(GraphQLUnionType)
    case enumType(GraphQLEnumType)
    case inputObject(GraphQLInputObjectType)

    public var name: String {
        switch self {
        case .scalar(let t): t.name
        case .object(let t): t.name
        case .interface(let t): t.name
        case .union(let t): t.name
        case .enumType(let t): t.name
        case .inputObject(let t): t.name
        }
    }

    public var typeDescription: String? {
        switch self {
        case .scalar(let t): t.description
        case .object(let t): t.description
        case .interface(let t): t.description
        case .union(let t): t.description
        case .enumType(let t): t.description
        case .inputObject(let t): t.description
        }
    }

    public var description: String { name }

    /// The `__TypeKind` of this type (§4.2.2).
    public var kind: String {
        switch self {
        case .scalar: "SCALAR"
        case .object: "OBJECT"
        case .interface: "INTERFACE"
        case .union: "UNION"
        case .enumType: "ENUM"
        case .inputObject: "INPUT_OBJECT"
        }
    }

    public var isInputType: Bool {
        switch self {
        case .scalar, .enumType, .inputObject: true
        default: false
        }
    }

    public var isOutputType: Bool { if case .inputObject = self { false } else { true } }

    /// Scalars and enums: the leaves of a response (§5.3.3).
    public var isLeaf: Bool {
        switch self {
        case .scalar, .enumType: true
        default: false
        }
    }

    /// Objects, interfaces and unions: types with selection sets.
    public var isComposite: Bool {
        switch self {
        case .object, .interface, .union: true
        default: false
        }
    }

    /// Interfaces and unions.
    public var isAbstract: Bool {
        switch self {
        case .interface, .union: true
        default: false
        }
    }

    /// The fields of an object or interface type; empty for every other kind.
    public var fields: [GraphQLField] {
        switch self {
        case .object(let t): t.fields
        case .interface(let t): t.fields
        default: []
        }
    }

    /// The field named `name` on an object or interface type.
    public func field(named name: String) -> GraphQLField? {
        switch self {
        case .object(let t): t.field(named: name)
        case .interface(let t): t.field(named: name)
        default: nil
        }
    }

    /// Where the type was defined, for errors.
    public var astNode: TypeDefinition? {
        switch self {
        case .scalar(let t): t.astNode
        case .object(let t): t.astNode
        case .interface(let t): t.astNode
        case .union(let t): t.astNode
        case .enumType(let t): t.astNode
        case .inputObject(let t): t.astNode
        }
    }

    public static func == (a: GraphQLNamedType, b: GraphQLNamedType) -> Bool { a.identity == b.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }

    var identity: ObjectIdentifier {
        switch self {
        case .scalar(let t): ObjectIdentifier(t)
        case .object(let t): ObjectIdentifier(t)
        case .interface(let t): ObjectIdentifier(t)
        case .union(let t): ObjectIdentifier(t)
        case .enumType(let t): ObjectIdentifier(t)
        case .inputObject(let t): ObjectIdentifier(t)
        }
    }
}
