import GraphQLLanguage

/// A scalar type (§3.5): a leaf with its own coercion rules.
public final class GraphQLScalarType: @unchecked Sendable {
    // @unchecked: filled in by SchemaBuilder (type extensions merge in after every named type
    // exists) before the schema is returned, never written after; see GraphQLObjectType.
    public let name: String
    public internal(set) var description: String?
    /// The URL given by `@specifiedBy(url:)`, if any.
    public internal(set) var specifiedByURL: String?
    public internal(set) var directives: [Directive] = []
    public internal(set) var astNode: TypeDefinition?
    public internal(set) var extensionNodes: [TypeExtension] = []
    /// How values of this scalar are coerced in and out.
    public internal(set) var coercion: ScalarCoercion

    public init(name: String, description: String? = nil, coercion: ScalarCoercion = .passThrough) {
        self.name = name
        self.description = description
        self.coercion = coercion
    }

    /// True for Int, Float, String, Boolean and ID.
    public var isSpecified: Bool { GraphQLScalarType.specifiedNames.contains(name) }
    static let specifiedNames: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]
}

/// An enum type (§3.9): one of a fixed set of names.
public final class GraphQLEnumType: @unchecked Sendable {
    // @unchecked: filled in by SchemaBuilder (type extensions merge in after every named type
    // exists) before the schema is returned, never written after; see GraphQLObjectType.
    public let name: String
    public internal(set) var description: String?
    public internal(set) var values: [GraphQLEnumValue] = []
    public internal(set) var directives: [Directive] = []
    public internal(set) var astNode: TypeDefinition?
    public internal(set) var extensionNodes: [TypeExtension] = []

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }

    public func value(named name: String) -> GraphQLEnumValue? {
        values.first { $0.name == name }
    }
}

/// One value of an enum type.
public final class GraphQLEnumValue: Sendable {
    public let name: String
    public let description: String?
    public let deprecationReason: String?
    public let directives: [Directive]
    public let astNode: EnumValueDefinition?

    public init(
        name: String, description: String? = nil, deprecationReason: String? = nil, directives: [Directive] = [],
        astNode: EnumValueDefinition? = nil
    ) {
        self.name = name
        self.description = description
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.astNode = astNode
    }

    public var isDeprecated: Bool { deprecationReason != nil }
}

/// An input object type (§3.10): named input fields, or exactly one of them with `@oneOf`.
public final class GraphQLInputObjectType: @unchecked Sendable {
    // @unchecked: filled in by SchemaBuilder (type extensions merge in after every named type
    // exists) before the schema is returned, never written after; see GraphQLObjectType.
    public let name: String
    public internal(set) var description: String?
    public internal(set) var fields: [GraphQLInputField] = []
    public internal(set) var isOneOf = false
    public internal(set) var directives: [Directive] = []
    public internal(set) var astNode: TypeDefinition?
    public internal(set) var extensionNodes: [TypeExtension] = []

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }

    public func field(named name: String) -> GraphQLInputField? {
        fields.first { $0.name == name }
    }
}

/// A directive the schema knows (§3.13): built-in or defined in SDL. Immutable.
public final class GraphQLDirective: Sendable {
    public let name: String
    public let description: String?
    public let arguments: [GraphQLArgument]
    public let locations: [DirectiveLocation]
    public let isRepeatable: Bool
    public let astNode: DirectiveDefinition?

    public init(
        name: String, description: String? = nil, arguments: [GraphQLArgument] = [], locations: [DirectiveLocation] = [],
        isRepeatable: Bool = false, astNode: DirectiveDefinition? = nil
    ) {
        self.name = name
        self.description = description
        self.arguments = arguments
        self.locations = locations
        self.isRepeatable = isRepeatable
        self.astNode = astNode
    }

    public func argument(named name: String) -> GraphQLArgument? {
        arguments.first { $0.name == name }
    }

    /// True for @skip, @include, @deprecated, @specifiedBy and @oneOf.
    public var isSpecified: Bool { GraphQLDirective.specifiedNames.contains(name) }
    static let specifiedNames: Set<String> = ["skip", "include", "deprecated", "specifiedBy", "oneOf"]
}
