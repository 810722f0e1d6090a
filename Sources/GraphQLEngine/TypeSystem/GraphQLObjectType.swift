import GraphQLLanguage

/// An object type (§3.6): named fields, each resolved to a value.
///
/// Named types are classes because they reference each other (a Profile's
/// followers are Profiles). They are filled in while the schema is built and
/// while resolvers are bound at start-up, and never change after that: that is
/// why they are `@unchecked Sendable`.
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
public final class GraphQLField: @unchecked Sendable {
    public let name: String
    public internal(set) var description: String?
    public internal(set) var type: GraphQLType
    public internal(set) var arguments: [GraphQLArgument] = []
    public internal(set) var deprecationReason: String?
    public internal(set) var directives: [Directive] = []
    public internal(set) var astNode: FieldDefinition?
    /// How this field gets its value; nil means the default: read by name from the parent.
    public internal(set) var resolver: FieldResolver?

    public init(name: String, type: GraphQLType, description: String? = nil) {
        self.name = name
        self.type = type
        self.description = description
    }

    public func argument(named name: String) -> GraphQLArgument? {
        arguments.first { $0.name == name }
    }

    public var isDeprecated: Bool { deprecationReason != nil }
}

/// An argument of a field or directive, or a field of an input object (§3.6.1, §3.10).
public final class GraphQLArgument: @unchecked Sendable {
    public let name: String
    public internal(set) var description: String?
    public internal(set) var type: GraphQLType
    /// The default value as written in SDL.
    public internal(set) var defaultValue: Value?
    public internal(set) var deprecationReason: String?
    public internal(set) var directives: [Directive] = []
    public internal(set) var astNode: InputValueDefinition?

    public init(name: String, type: GraphQLType, defaultValue: Value? = nil, description: String? = nil) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.description = description
    }

    public var isDeprecated: Bool { deprecationReason != nil }

    /// A required argument: non-null with no default (§5.4.2.1).
    public var isRequired: Bool { type.isNonNull && defaultValue == nil }
}

/// The fields of an input object are arguments in all but name.
public typealias GraphQLInputField = GraphQLArgument
