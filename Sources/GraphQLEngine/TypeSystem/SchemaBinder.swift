/// Binds resolvers to a schema by type and field name, at start-up.
///
/// Schema first: the SDL is the contract, and code attaches to it by name. A
/// binding for a field the schema does not have, or (with `requireAll`) a field
/// left without one, is an error when the server starts, not a surprise later.
///
/// ```swift
/// var binder = SchemaBinder(schema: schema)
/// binder.bind("Query", "viewer") { info in try await loaders(info).viewer() }
/// binder.bindSync("Profile", "handle") { info in try info.parent(as: Profile.self).handle }
/// try binder.finish(requireAll: true)
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

    /// Applies the bindings.
    /// - Parameter requireAll: every field of every object type the schema defines must be bound.
    /// - Throws: ``BindingError`` listing every unknown binding and (with `requireAll`) every unbound field.
    public func finish(requireAll: Bool) throws(BindingError) {
        var problems: [String] = []
        var bound = Set<String>()
        for (typeName, fieldName, resolver) in bindings {
            guard let type = schema.type(named: typeName) else {
                problems.append("Resolver bound to \(typeName).\(fieldName), but the schema has no type \"\(typeName)\".")
                continue
            }
            guard case .object(let object) = type else {
                problems.append("Resolver bound to \(typeName).\(fieldName), but \"\(typeName)\" is not an object type.")
                continue
            }
            guard let field = object.field(named: fieldName) else {
                problems.append("Resolver bound to \(typeName).\(fieldName), but \"\(typeName)\" has no field \"\(fieldName)\".")
                continue
            }
            if !bound.insert("\(typeName).\(fieldName)").inserted {
                problems.append("Resolver bound twice to \(typeName).\(fieldName).")
            }
            field.resolver = resolver
        }
        for (typeName, resolver) in typeResolvers {
            switch schema.type(named: typeName) {
            case .interface(let interface)?: interface.resolveType = resolver
            case .union(let union)?: union.resolveType = resolver
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
    }
}

/// Resolvers that do not match the schema: the server must not start.
public struct BindingError: Error, Sendable, CustomStringConvertible {
    public var problems: [String]

    public init(problems: [String]) { self.problems = problems }

    public var description: String { "The resolvers do not match the schema:\n" + problems.map { "- " + $0 }.joined(separator: "\n") }
}
