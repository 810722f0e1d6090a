import GraphQLLanguage

/// Builds a ``GraphQLSchema`` from SDL (schema-first), then validates it (§3).
///
/// Type extensions are merged into their types; the built-in scalars, the
/// specified directives and the introspection types (Appendix D) are added.
///
/// ```swift
/// let schema = try SchemaBuilder.build(sdl: try String(contentsOfFile: "schema.graphql"))
/// ```
/// - Throws: ``SchemaError`` listing every problem found, each with locations,
///   or it wraps the ``GraphQLSyntaxError`` of unparsable SDL.
public enum SchemaBuilder {
    public static func build(
        sdl: String, name: String = "schema.graphql", scalars: [String: ScalarCoercion] = [:]
    ) throws(SchemaError) -> GraphQLSchema {
        let source = Source(sdl, name: name)
        let document: Document
        do {
            document = try Document(parsing: source)
        } catch {
            throw SchemaError([GraphQLError(error)])
        }
        return try build(document: document, source: source, scalars: scalars)
    }

    /// Builds from a parsed SDL document. `scalars` gives coercion rules to custom scalars by name.
    public static func build(
        document: Document, source: Source? = nil, scalars: [String: ScalarCoercion] = [:]
    ) throws(SchemaError) -> GraphQLSchema {
        try build(SchemaDefinitionInput(document: document, source: source, scalars: scalars), resolvers: SchemaResolvers())
    }

    /// Builds with resolvers in place: every field and abstract type gets its resolver as it is
    /// made, so nothing writes into the schema once it is returned (see ``SchemaBinder``).
    static func build(_ input: SchemaDefinitionInput, resolvers: SchemaResolvers) throws(SchemaError) -> GraphQLSchema {
        let document = input.document
        var all = resolvers
        all.fields.merge(Introspection.fieldResolvers) { own, _ in own }
        var context = BuildContext(source: input.source, scalars: input.scalars, resolvers: all)
        context.collect(document)
        context.addSpecifiedDefinitions()
        context.createTypes()
        context.fillTypes()
        context.buildDirectives()
        context.checkAppliedDirectives()
        guard let schema = context.makeSchema(input: input) else { throw SchemaError(context.errors) }
        let problems = context.errors + SchemaValidator.validate(schema)
        guard problems.isEmpty else { throw SchemaError(problems) }
        return schema
    }
}

/// The reasons a schema could not be built.
public struct SchemaError: Error, Sendable, CustomStringConvertible {
    public var errors: [GraphQLError]

    public init(_ errors: [GraphQLError]) { self.errors = errors }

    public var description: String {
        errors.map { error in
            error.message + (error.locations.isEmpty ? "" : " (" + error.locations.map(\.description).joined(separator: ", ") + ")")
        }.joined(separator: "\n")
    }
}

/// What a schema was built from, kept so that ``SchemaBinder`` can build it again with resolvers.
struct SchemaDefinitionInput: Sendable {
    let document: Document
    let source: Source?
    let scalars: [String: ScalarCoercion]
}

/// Resolvers by object type and field name, and type resolvers by abstract type name.
struct SchemaResolvers: Sendable {
    var fields: [String: [String: FieldResolver]] = [:]
    var types: [String: TypeResolver] = [:]
}

/// State of one build: the definitions found, the types made, the errors seen.
struct BuildContext {
    let source: Source?
    let scalars: [String: ScalarCoercion]
    let resolvers: SchemaResolvers
    var errors: [GraphQLError] = []

    var typeDefinitions: [(definition: TypeDefinition, source: Source?)] = []
    var typeDefinitionIndex: [String: Int] = [:]
    var extensions: [String: [TypeExtension]] = [:]
    var extensionOrder: [String] = []
    var directiveDefinitions: [(definition: DirectiveDefinition, source: Source?)] = []
    var schemaDefinition: SchemaDefinition?
    var schemaExtensions: [SchemaExtension] = []

    var types: [String: GraphQLNamedType] = [:]
    var typeNames: [String] = []
    var directives: [GraphQLDirective] = []
    /// Names of types defined by the engine itself (specified scalars, introspection types).
    var builtInNames: Set<String> = []

    init(source: Source?, scalars: [String: ScalarCoercion], resolvers: SchemaResolvers) {
        self.source = source
        self.resolvers = resolvers
        self.scalars = scalars
    }

    mutating func error(_ message: String, _ ranges: [SourceRange], source: Source? = nil) {
        errors.append(GraphQLError(message, ranges: ranges, source: source ?? self.source))
    }

    // MARK: - Collect definitions

    mutating func collect(_ document: Document, source documentSource: Source? = nil, builtIn: Bool = false) {
        let source = documentSource ?? self.source
        for definition in document.definitions {
            switch definition {
            case .schema(let schema):
                if let existing = schemaDefinition {
                    error("Must provide only one schema definition.", [existing.range, schema.range])
                } else {
                    schemaDefinition = schema
                }
            case .schemaExtension(let ext):
                schemaExtensions.append(ext)
            case .type(let type):
                let name = type.name.value
                if !builtIn && name.hasPrefix("__") {
                    error(
                        "Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.",
                        [type.name.range])
                    continue
                }
                if let i = typeDefinitionIndex[name] {
                    if builtInNames.contains(name) { continue }
                    error(
                        "There can be only one type named \"\(name)\".",
                        [typeDefinitions[i].definition.name.range, type.name.range])
                    continue
                }
                if builtIn { builtInNames.insert(name) }
                typeDefinitionIndex[name] = typeDefinitions.count
                typeDefinitions.append((type, source))
            case .typeExtension(let ext):
                if extensions[ext.name.value] == nil { extensionOrder.append(ext.name.value) }
                extensions[ext.name.value, default: []].append(ext)
            case .directive(let directive):
                let name = directive.name.value
                if let existing = directiveDefinitions.first(where: { $0.definition.name.value == name }) {
                    if builtIn { continue }
                    error(
                        "There can be only one directive named \"@\(name)\".",
                        [existing.definition.name.range, directive.name.range])
                    continue
                }
                directiveDefinitions.append((directive, source))
            case .operation(let op):
                error(
                    "A schema document cannot contain operations; found \(op.name.map { "\"\($0.value)\"" } ?? "an anonymous operation").",
                    [op.range])
            case .fragment(let fragment):
                error("A schema document cannot contain fragments; found \"\(fragment.name.value)\".", [fragment.range])
            }
        }
    }

    /// Adds the built-in scalars, directives and introspection types unless SDL defined them.
    mutating func addSpecifiedDefinitions() {
        for scalar in SpecifiedScalars.makeAll() where typeDefinitionIndex[scalar.name] == nil {
            builtInNames.insert(scalar.name)
            types[scalar.name] = .scalar(scalar)
        }
        let directiveSource = Source(SpecifiedDefinitions.directives, name: "specified directives")
        let introspectionSource = Source(SpecifiedDefinitions.introspectionTypes, name: "introspection")
        // Both are fixed, valid SDL: a failure here is a programming error caught by the tests.
        if let document = try? Document(parsing: directiveSource) {
            collect(document, source: directiveSource, builtIn: true)
        }
        if let document = try? Document(parsing: introspectionSource) {
            collect(document, source: introspectionSource, builtIn: true)
        }
    }

    // MARK: - Types

    /// Makes one instance per defined type, so fields can reference any of them.
    mutating func createTypes() {
        for (definition, _) in typeDefinitions {
            let name = definition.name.value
            let type: GraphQLNamedType
            switch definition {
            case .scalar(let d):
                let scalar = GraphQLScalarType(name: name, description: d.description?.value, coercion: scalars[name] ?? .passThrough)
                scalar.astNode = definition
                type = .scalar(scalar)
            case .object(let d):
                let object = GraphQLObjectType(name: name, description: d.description?.value)
                object.astNode = definition
                type = .object(object)
            case .interface(let d):
                let interface = GraphQLInterfaceType(name: name, description: d.description?.value)
                interface.astNode = definition
                interface.resolveType = resolvers.types[name]
                type = .interface(interface)
            case .union(let d):
                let union = GraphQLUnionType(name: name, description: d.description?.value)
                union.astNode = definition
                union.resolveType = resolvers.types[name]
                type = .union(union)
            case .enumType(let d):
                let enumType = GraphQLEnumType(name: name, description: d.description?.value)
                enumType.astNode = definition
                type = .enumType(enumType)
            case .inputObject(let d):
                let input = GraphQLInputObjectType(name: name, description: d.description?.value)
                input.astNode = definition
                type = .inputObject(input)
            }
            types[name] = type
            typeNames.append(name)
        }
        for name in extensionOrder where types[name] == nil {
            for ext in extensions[name] ?? [] {
                error("Cannot extend type \"\(name)\" because it is not defined.", [ext.name.range])
            }
        }
    }

    /// Resolves a type reference; unknown names are reported and replaced by String.
    mutating func resolve(_ reference: TypeReference, source: Source?) -> GraphQLType {
        switch reference {
        case .named(let named):
            if let type = types[named.name.value] { return .named(type) }
            let suggestions = Suggestions.list(named.name.value, Array(types.keys))
            error("Unknown type \"\(named.name.value)\".\(Suggestions.didYouMean(suggestions))", [named.range], source: source)
            return .named(types["String"]!)
        case .list(let list):
            return .list(resolve(list.type, source: source))
        case .nonNull(let nonNull):
            return .nonNull(resolve(nonNull.type, source: source))
        }
    }
}
