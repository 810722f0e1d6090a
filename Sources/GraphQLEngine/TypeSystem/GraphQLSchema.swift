import GraphQLLanguage

/// A complete, validated schema (§3): its types, root operation types and directives.
///
/// Built from SDL by ``SchemaBuilder``; ``SchemaBinder`` then builds the bound schema, with a
/// resolver on every field from the start. Nothing changes a schema once it is returned.
///
/// ```swift
/// let schema = try SchemaBuilder.build(sdl: "type Query { hello: String }")
/// ```
public final class GraphQLSchema: Sendable {
    public let description: String?
    public let queryType: GraphQLObjectType
    public let mutationType: GraphQLObjectType?
    public let subscriptionType: GraphQLObjectType?
    /// Every named type by name, built-ins and introspection types included.
    public let typeMap: [String: GraphQLNamedType]
    /// The names of the types in definition order (user types first).
    public let typeNames: [String]
    /// Every directive the schema knows, specified ones included.
    public let directives: [GraphQLDirective]
    /// The `schema { ... }` definition and its extensions, as written.
    public let schemaDirectives: [Directive]
    public let astNode: SchemaDefinition?
    /// The source the schema was built from, to locate errors.
    public let source: Source?

    /// `__typename`, `__schema` and `__type`; see ``fieldDefinition(parentType:name:)``.
    public let metaFields: MetaFields

    /// Object types implementing each interface, and interfaces implementing it.
    let implementations: [String: (objects: [GraphQLObjectType], interfaces: [GraphQLInterfaceType])]
    let possibleTypeNames: [String: Set<String>]
    /// What it was built from, for ``SchemaBinder`` to build the bound schema.
    let definitionInput: SchemaDefinitionInput

    init(
        description: String?, queryType: GraphQLObjectType, mutationType: GraphQLObjectType?,
        subscriptionType: GraphQLObjectType?, typeMap: [String: GraphQLNamedType], typeNames: [String],
        directives: [GraphQLDirective], schemaDirectives: [Directive], astNode: SchemaDefinition?, source: Source?,
        definitionInput: SchemaDefinitionInput
    ) {
        self.definitionInput = definitionInput
        self.description = description
        self.queryType = queryType
        self.mutationType = mutationType
        self.subscriptionType = subscriptionType
        self.typeMap = typeMap
        self.typeNames = typeNames
        self.directives = directives
        self.schemaDirectives = schemaDirectives
        self.astNode = astNode
        self.source = source
        self.metaFields = MetaFields(typeMap: typeMap)

        var implementations: [String: (objects: [GraphQLObjectType], interfaces: [GraphQLInterfaceType])] = [:]
        for name in typeNames {
            switch typeMap[name] {
            case .object(let object):
                for interface in object.interfaces { implementations[interface.name, default: ([], [])].objects.append(object) }
            case .interface(let interface):
                for parent in interface.interfaces {
                    implementations[parent.name, default: ([], [])].interfaces.append(interface)
                }
            default: break
            }
        }
        self.implementations = implementations
        var possible: [String: Set<String>] = [:]
        for name in typeNames {
            switch typeMap[name] {
            case .union(let union): possible[name] = Set(union.types.map(\.name))
            case .interface: possible[name] = Set(implementations[name]?.objects.map(\.name) ?? [])
            default: break
            }
        }
        self.possibleTypeNames = possible
    }

    public func type(named name: String) -> GraphQLNamedType? { typeMap[name] }

    public func directive(named name: String) -> GraphQLDirective? { directives.first { $0.name == name } }

    /// The root type of an operation (§6.1), or nil if the schema has none.
    public func rootType(for operation: OperationType) -> GraphQLObjectType? {
        switch operation {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
    }

    /// The object types a value of an abstract type can be (§3.7, §3.8).
    public func possibleTypes(of abstract: GraphQLNamedType) -> [GraphQLObjectType] {
        switch abstract {
        case .union(let union): union.types
        case .interface(let interface): implementations[interface.name]?.objects ?? []
        case .object(let object): [object]
        default: []
        }
    }

    /// Interfaces that implement `interface`.
    public func interfacesImplementing(_ interface: GraphQLInterfaceType) -> [GraphQLInterfaceType] {
        implementations[interface.name]?.interfaces ?? []
    }

    /// Whether `maybeSubType` is a possible type of the abstract type (objects and interfaces).
    public func isSubType(_ abstract: GraphQLNamedType, _ maybeSubType: GraphQLNamedType) -> Bool {
        switch (abstract, maybeSubType) {
        case (.union, .object(let o)): return possibleTypeNames[abstract.name]?.contains(o.name) ?? false
        case (.interface, .object(let o)): return possibleTypeNames[abstract.name]?.contains(o.name) ?? false
        case (.interface(let i), .interface(let sub)): return sub.interfaces.contains { $0 === i }
        default: return false
        }
    }

    /// The named types users defined (no built-in scalars, no introspection types), in definition order.
    public var definedTypes: [GraphQLNamedType] {
        typeNames.compactMap { name in
            guard let type = typeMap[name], !name.hasPrefix("__") else { return nil }
            if case .scalar(let s) = type, s.isSpecified, s.astNode == nil { return nil }
            return type
        }
    }
}
