import GraphQLLanguage

/// An object type (§3.6): named fields, each resolved to a value.
///
/// Named types are classes because they reference each other (a Profile's
/// followers are Profiles): a type must exist before the fields that name it, so
/// ``SchemaBuilder`` makes every named type first and fills in its fields after.
/// That fill is the only write, done before the builder returns the schema; no
/// setter is public and binding builds a new schema rather than writing into one.
/// Their stored properties are `var` only for that, which is why they are
/// `@unchecked Sendable` (the fields, arguments and enum values inside are checked).
public final class GraphQLObjectType: @unchecked Sendable {
    public let name: String
    public internal(set) var description: String?
    public internal(set) var fields: [GraphQLField] = []
    public internal(set) var interfaces: [GraphQLInterfaceType] = []
    /// Directives applied in SDL (for example `@cacheControl`), definition then extensions.
    public internal(set) var directives: [Directive] = []
    public internal(set) var astNode: TypeDefinition?
    public internal(set) var extensionNodes: [TypeExtension] = []
    var fieldIndex: [String: Int] = [:]

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }

    public func field(named name: String) -> GraphQLField? {
        guard let i = fieldIndex[name] else { return nil }
        return fields[i]
    }

    func addField(_ field: GraphQLField) {
        fieldIndex[field.name] = fields.count
        fields.append(field)
    }
}

/// An interface type (§3.7): fields that implementing types must provide.
public final class GraphQLInterfaceType: @unchecked Sendable {
    // @unchecked: filled in by SchemaBuilder (type extensions merge in after every named type
    // exists) before the schema is returned, never written after; see GraphQLObjectType.
    public let name: String
    public internal(set) var description: String?
    public internal(set) var fields: [GraphQLField] = []
    public internal(set) var interfaces: [GraphQLInterfaceType] = []
    public internal(set) var directives: [Directive] = []
    public internal(set) var astNode: TypeDefinition?
    public internal(set) var extensionNodes: [TypeExtension] = []
    var fieldIndex: [String: Int] = [:]
    /// Chooses the concrete object type of a resolved value (§6.4.3 ResolveAbstractType).
    public internal(set) var resolveType: TypeResolver?

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }

    public func field(named name: String) -> GraphQLField? {
        guard let i = fieldIndex[name] else { return nil }
        return fields[i]
    }

    func addField(_ field: GraphQLField) {
        fieldIndex[field.name] = fields.count
        fields.append(field)
    }
}

/// A union type (§3.8): one of several object types.
public final class GraphQLUnionType: @unchecked Sendable {
    // @unchecked: filled in by SchemaBuilder (type extensions merge in after every named type
    // exists) before the schema is returned, never written after; see GraphQLObjectType.
    public let name: String
    public internal(set) var description: String?
    public internal(set) var types: [GraphQLObjectType] = []
    public internal(set) var directives: [Directive] = []
    public internal(set) var astNode: TypeDefinition?
    public internal(set) var extensionNodes: [TypeExtension] = []
    public internal(set) var resolveType: TypeResolver?

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }
}

/// Chooses the object type name for a value of an abstract type; nil if it cannot tell.
public typealias TypeResolver = @Sendable (_ value: any Sendable) -> String?

/// A field of an object or interface type (§3.6).
///
/// Immutable: the builder makes it once every named type exists, with its resolver.
public final class GraphQLField: Sendable {
    public let name: String
    public let description: String?
    public let type: GraphQLType
    public let arguments: [GraphQLArgument]
    public let deprecationReason: String?
    public let directives: [Directive]
    public let astNode: FieldDefinition?
    /// How this field gets its value; nil means the default: read by name from the parent.
    public let resolver: FieldResolver?

    public init(
        name: String, type: GraphQLType, description: String? = nil, arguments: [GraphQLArgument] = [],
        deprecationReason: String? = nil, directives: [Directive] = [], astNode: FieldDefinition? = nil,
        resolver: FieldResolver? = nil
    ) {
        self.name = name
        self.type = type
        self.description = description
        self.arguments = arguments
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.astNode = astNode
        self.resolver = resolver
    }

    public func argument(named name: String) -> GraphQLArgument? {
        arguments.first { $0.name == name }
    }

    public var isDeprecated: Bool { deprecationReason != nil }
}

/// An argument of a field or directive, or a field of an input object (§3.6.1, §3.10).
///
/// Immutable: the builder makes it once every named type exists.
public final class GraphQLArgument: Sendable {
    public let name: String
    public let description: String?
    public let type: GraphQLType
    /// The default value as written in SDL.
    public let defaultValue: Value?
    public let deprecationReason: String?
    public let directives: [Directive]
    public let astNode: InputValueDefinition?

    public init(
        name: String, type: GraphQLType, defaultValue: Value? = nil, description: String? = nil,
        deprecationReason: String? = nil, directives: [Directive] = [], astNode: InputValueDefinition? = nil
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.description = description
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.astNode = astNode
    }

    public var isDeprecated: Bool { deprecationReason != nil }

    /// A required argument: non-null with no default (§5.4.2.1).
    public var isRequired: Bool { type.isNonNull && defaultValue == nil }
}

/// The fields of an input object are arguments in all but name.
public typealias GraphQLInputField = GraphQLArgument
