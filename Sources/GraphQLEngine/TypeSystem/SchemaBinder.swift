/// Binds resolvers to a schema by type and field name, at start-up.
///
/// Schema first: the SDL is the contract, and code attaches to it by name. A
/// binding for a field the schema does not have, or (with `requireAll`) a field
/// left without one, is an error when the server starts, not a surprise later.
///
/// Binding never writes into the schema it was given: ``finish(requireAll:)`` checks the
/// bindings against it and returns a new schema, built from the same definitions with every
/// resolver in place from the start, so a schema is never changed once anyone holds it.
///
/// ```swift
/// var binder = SchemaBinder(schema: schema)
/// binder.bind("Query", "viewer") { info in try await loaders(info).viewer() }
/// binder.bindSync("Profile", "handle") { info in try info.parent(as: Profile.self).handle }
/// let bound = try binder.finish(requireAll: true)
/// ```
public struct SchemaBinder {
    public let schema: GraphQLSchema
    private var bindings: [(type: String, field: String, resolver: FieldResolver)] = []
    private var typeResolvers: [(type: String, resolver: TypeResolver)] = []

    public init(schema: GraphQLSchema) { self.schema = schema }

    /// Binds an async resolver.
    public mutating func bind(
        _ typeName: String, _ fieldName: String, _ resolve: @escaping @Sendable (ResolveInfo) async throws -> (any Sendable)?
    ) {
        bindings.append((typeName, fieldName, .async(resolve)))
    }

    /// Binds a resolver that answers inline when it can (`ready`), and otherwise waits (`otherwise`)
    /// like an async one: for values a loader may already hold.
    ///
    /// ```swift
    /// binder.bind("Profile", "viewerIsFollowing",
    ///             ready: { info in states(info).peek(id(info)).map { .ready($0) } ?? .notReady },
    ///             otherwise: { info in try await states(info).load(id(info)) })
    /// ```
    public mutating func bind(
        _ typeName: String, _ fieldName: String,
        ready: @escaping @Sendable (ResolveInfo) throws -> Readiness,
        otherwise: @escaping @Sendable (ResolveInfo) async throws -> (any Sendable)?
    ) {
        bindings.append((typeName, fieldName, .readyOrAsync(ready: ready, otherwise: otherwise)))
    }

    /// Binds a synchronous resolver (the fast path for plain reads).
    public mutating func bindSync(
        _ typeName: String, _ fieldName: String, _ resolve: @escaping @Sendable (ResolveInfo) throws -> (any Sendable)?
    ) {
        bindings.append((typeName, fieldName, .sync(resolve)))
    }

    /// Binds the function that picks the object type of an interface or union value.
    public mutating func resolveType(_ abstractTypeName: String, _ resolve: @escaping TypeResolver) {
        typeResolvers.append((abstractTypeName, resolve))
    }

    /// Checks the bindings and builds the bound schema.
    /// - Parameter requireAll: every field of every object type the schema defines must be bound.
    /// - Returns: the schema with every bound resolver; the one given to ``init(schema:)`` is unchanged.
    /// - Throws: ``BindingError`` listing every unknown binding and (with `requireAll`) every unbound field.
    public func finish(requireAll: Bool) throws(BindingError) -> GraphQLSchema {
        var problems: [String] = []
        var bound = Set<String>()
        var resolvers = SchemaResolvers()
        for (typeName, fieldName, resolver) in bindings {
            guard let type = schema.type(named: typeName) else {
                problems.append("Resolver bound to \(typeName).\(fieldName), but the schema has no type \"\(typeName)\".")
                continue
            }
            guard case .object(let object) = type else {
                problems.append("Resolver bound to \(typeName).\(fieldName), but \"\(typeName)\" is not an object type.")
                continue
            }
            guard object.field(named: fieldName) != nil else {
                problems.append("Resolver bound to \(typeName).\(fieldName), but \"\(typeName)\" has no field \"\(fieldName)\".")
                continue
            }
            if !bound.insert("\(typeName).\(fieldName)").inserted {
                problems.append("Resolver bound twice to \(typeName).\(fieldName).")
            }
            resolvers.fields[typeName, default: [:]][fieldName] = resolver
        }
        for (typeName, resolver) in typeResolvers {
            switch schema.type(named: typeName) {
            case .interface?, .union?: resolvers.types[typeName] = resolver
            default: problems.append("Type resolver bound to \"\(typeName)\", which is not an interface or union of the schema.")
            }
        }
        if requireAll {
            for type in schema.definedTypes {
                guard case .object(let object) = type else { continue }
                for field in object.fields where !bound.contains("\(object.name).\(field.name)") {
                    problems.append("No resolver bound to \(object.name).\(field.name).")
                }
            }
            for type in schema.definedTypes where type.isAbstract {
                if !typeResolvers.contains(where: { $0.type == type.name }) {
                    problems.append("No type resolver bound to \(type.kind.lowercased()) \(type.name).")
                }
            }
        }
        if !problems.isEmpty { throw BindingError(problems: problems) }
        do {
            return try SchemaBuilder.build(schema.definitionInput, resolvers: resolvers)
        } catch {
            // The same definitions built once already; only a bug in the builder gets here.
            throw BindingError(problems: error.errors.map(\.message))
        }
    }
}

/// Resolvers that do not match the schema: the server must not start.
public struct BindingError: Error, Sendable, CustomStringConvertible {
    public var problems: [String]

    public init(problems: [String]) { self.problems = problems }

    public var description: String { "The resolvers do not match the schema:\n" + problems.map { "- " + $0 }.joined(separator: "\n") }
}
