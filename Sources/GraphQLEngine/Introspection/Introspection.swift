import GraphQLLanguage

/// The introspection system (§4): resolvers for `__Schema`, `__Type`, `__Field`,
/// `__InputValue`, `__EnumValue`, `__Directive` and the meta-fields `__schema`
/// and `__type`, reading the schema model directly. All are synchronous.
enum Introspection {
    /// `__schema`: the schema being executed.
    static let schemaMetaField: FieldResolver = .sync { info in info.schema }
    /// `__type(name:)`: one named type, or null.
    static let typeMetaField: FieldResolver = .sync { info in
        info.arguments.string("name").flatMap { info.schema.type(named: $0) }.map(GraphQLType.named)
    }

    /// The resolvers of the introspection types' fields, which the builder puts in place as it
    /// makes those fields (every schema has them).
    static let fieldResolvers: [String: [String: FieldResolver]] = {
        var resolvers: [String: [String: FieldResolver]] = [:]
        func bindFields(_ typeName: String, _ reads: [String: Read]) {
            resolvers[typeName] = reads.mapValues { read in
                .sync { info in
                    read(info.parent, Arguments(includeDeprecated: info.arguments.bool("includeDeprecated") ?? false, schema: info.schema))
                }
            }
        }
        bindFields("__Schema", [
            "description": { s, _ in (s as? GraphQLSchema)?.description },
            "types": { s, _ in
                guard let schema = s as? GraphQLSchema else { return nil }
                return schema.typeNames.compactMap { schema.typeMap[$0].map(GraphQLType.named) }
            },
            "queryType": { s, _ in (s as? GraphQLSchema).map { GraphQLType.named(.object($0.queryType)) } },
            "mutationType": { s, _ in (s as? GraphQLSchema)?.mutationType.map { GraphQLType.named(.object($0)) } },
            "subscriptionType": { s, _ in (s as? GraphQLSchema)?.subscriptionType.map { GraphQLType.named(.object($0)) } },
            "directives": { s, _ in (s as? GraphQLSchema)?.directives },
        ])
        bindFields("__Type", [
            "kind": { t, _ in kind(t) },
            "name": { t, _ in named(t)?.name },
            "description": { t, _ in named(t)?.typeDescription },
            "specifiedByURL": { t, _ in if case .scalar(let s)? = named(t) { s.specifiedByURL } else { nil } },
            "fields": { t, args in
                guard let type = named(t), case .object = type else {
                    if case .interface? = named(t) { return filter(named(t)!.fields, args) }
                    return nil
                }
                return filter(type.fields, args)
            },
            "interfaces": { t, _ in
                switch named(t) {
                case .object(let o)?: o.interfaces.map { GraphQLType.named(.interface($0)) }
                case .interface(let i)?: i.interfaces.map { GraphQLType.named(.interface($0)) }
                default: nil
                }
            },
            "possibleTypes": { t, args in
                guard let type = named(t), type.isAbstract, let schema = args.schema else { return nil }
                return schema.possibleTypes(of: type).map { GraphQLType.named(.object($0)) }
            },
            "enumValues": { t, args in
                guard case .enumType(let e)? = named(t) else { return nil }
                return args.includeDeprecated ? e.values : e.values.filter { !$0.isDeprecated }
            },
            "inputFields": { t, args in
                guard case .inputObject(let i)? = named(t) else { return nil }
                return args.includeDeprecated ? i.fields : i.fields.filter { !$0.isDeprecated }
            },
            "ofType": { t, _ in
                switch t as? GraphQLType {
                case .list(let inner)?, .nonNull(let inner)?: inner
                default: nil
                }
            },
            "isOneOf": { t, _ in if case .inputObject(let i)? = named(t) { i.isOneOf } else { nil } },
        ])
        bindFields("__Field", [
            "name": { f, _ in (f as? GraphQLField)?.name },
            "description": { f, _ in (f as? GraphQLField)?.description },
            "args": { f, args in
                guard let field = f as? GraphQLField else { return nil }
                return args.includeDeprecated ? field.arguments : field.arguments.filter { !$0.isDeprecated }
            },
            "type": { f, _ in (f as? GraphQLField)?.type },
            "isDeprecated": { f, _ in (f as? GraphQLField)?.isDeprecated },
            "deprecationReason": { f, _ in (f as? GraphQLField)?.deprecationReason },
        ])
        bindFields("__InputValue", [
            "name": { a, _ in (a as? GraphQLArgument)?.name },
            "description": { a, _ in (a as? GraphQLArgument)?.description },
            "type": { a, _ in (a as? GraphQLArgument)?.type },
            "defaultValue": { a, _ in (a as? GraphQLArgument)?.defaultValue.map { Printer.print($0) } },
            "isDeprecated": { a, _ in (a as? GraphQLArgument)?.isDeprecated },
            "deprecationReason": { a, _ in (a as? GraphQLArgument)?.deprecationReason },
        ])
        bindFields("__EnumValue", [
            "name": { v, _ in (v as? GraphQLEnumValue)?.name },
            "description": { v, _ in (v as? GraphQLEnumValue)?.description },
            "isDeprecated": { v, _ in (v as? GraphQLEnumValue)?.isDeprecated },
            "deprecationReason": { v, _ in (v as? GraphQLEnumValue)?.deprecationReason },
        ])
        bindFields("__Directive", [
            "name": { d, _ in (d as? GraphQLDirective)?.name },
            "description": { d, _ in (d as? GraphQLDirective)?.description },
            "isRepeatable": { d, _ in (d as? GraphQLDirective)?.isRepeatable },
            "locations": { d, _ in (d as? GraphQLDirective)?.locations.map(\.rawValue) },
            "args": { d, args in
                guard let directive = d as? GraphQLDirective else { return nil }
                return args.includeDeprecated ? directive.arguments : directive.arguments.filter { !$0.isDeprecated }
            },
        ])
        return resolvers
    }()

    /// What an introspection resolver reads besides its parent.
    struct Arguments {
        let includeDeprecated: Bool
        let schema: GraphQLSchema?
    }

    typealias Read = @Sendable (any Sendable, Arguments) -> (any Sendable)?

    static func named(_ value: any Sendable) -> GraphQLNamedType? {
        if case .named(let t)? = value as? GraphQLType { return t }
        return nil
    }

    static func kind(_ value: any Sendable) -> String? {
        switch value as? GraphQLType {
        case .named(let t)?: t.kind
        case .list?: "LIST"
        case .nonNull?: "NON_NULL"
        case nil: nil
        }
    }

    static func filter(_ fields: [GraphQLField], _ args: Arguments) -> [GraphQLField] {
        args.includeDeprecated ? fields : fields.filter { !$0.isDeprecated }
    }
}
