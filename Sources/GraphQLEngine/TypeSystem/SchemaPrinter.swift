import GraphQLLanguage

/// Prints a schema as SDL: the schema definition (when its root names are not the
/// defaults), the schema's own directives, then its types in definition order.
///
/// Unlike graphql-js's `printSchema`, applied directives (`@cacheControl`,
/// `@deprecated`...) are kept, and descriptions keep the quoting they were written
/// with. So a schema file written in this order and layout prints back to itself:
/// `SchemaPrinter.print(try SchemaBuilder.build(sdl: text)) == Document(parsing: text).printed`.
public enum SchemaPrinter {
    public static func print(_ schema: GraphQLSchema) -> String {
        Document(definitions: definitions(of: schema)).printed
    }

    static func definitions(of schema: GraphQLSchema) -> [Definition] {
        var definitions: [Definition] = []
        if let schemaDefinition = schemaDefinition(of: schema) { definitions.append(.schema(schemaDefinition)) }
        for directive in schema.directives where !directive.isSpecified {
            definitions.append(.directive(directiveDefinition(directive)))
        }
        for type in schema.definedTypes { definitions.append(.type(typeDefinition(type))) }
        return definitions
    }

    static func schemaDefinition(of schema: GraphQLSchema) -> SchemaDefinition? {
        let isDefault =
            schema.queryType.name == "Query" && (schema.mutationType?.name ?? "Mutation") == "Mutation"
            && (schema.subscriptionType?.name ?? "Subscription") == "Subscription"
        if isDefault && schema.description == nil && schema.schemaDirectives.isEmpty { return nil }
        var operations: [RootOperationTypeDefinition] = [
            RootOperationTypeDefinition(operation: .query, type: NamedType(name: Name(schema.queryType.name)))
        ]
        if let m = schema.mutationType {
            operations.append(RootOperationTypeDefinition(operation: .mutation, type: NamedType(name: Name(m.name))))
        }
        if let s = schema.subscriptionType {
            operations.append(RootOperationTypeDefinition(operation: .subscription, type: NamedType(name: Name(s.name))))
        }
        return SchemaDefinition(
            description: schema.astNode?.description ?? describe(schema.description),
            directives: schema.schemaDirectives, operationTypes: operations)
    }

    /// A description as written in SDL, or a block string if it spans lines.
    static func describe(_ text: String?, written: StringValue? = nil) -> StringValue? {
        if let written, written.value == text { return written }
        guard let text else { return nil }
        return StringValue(text, isBlock: text.contains("\n"))
    }

    static func typeDefinition(_ type: GraphQLNamedType) -> TypeDefinition {
        switch type {
        case .scalar(let t):
            return .scalar(
                ScalarTypeDefinition(
                    description: describe(t.description, written: writtenDescription(t.astNode)), name: Name(t.name),
                    directives: t.directives))
        case .object(let t):
            return .object(
                ObjectTypeDefinition(
                    description: describe(t.description, written: writtenDescription(t.astNode)), name: Name(t.name),
                    interfaces: t.interfaces.map { NamedType(name: Name($0.name)) }, directives: t.directives,
                    fields: t.fields.map(fieldDefinition)))
        case .interface(let t):
            return .interface(
                ObjectTypeDefinition(
                    description: describe(t.description, written: writtenDescription(t.astNode)), name: Name(t.name),
                    interfaces: t.interfaces.map { NamedType(name: Name($0.name)) }, directives: t.directives,
                    fields: t.fields.map(fieldDefinition)))
        case .union(let t):
            return .union(
                UnionTypeDefinition(
                    description: describe(t.description, written: writtenDescription(t.astNode)), name: Name(t.name),
                    directives: t.directives, types: t.types.map { NamedType(name: Name($0.name)) }))
        case .enumType(let t):
            return .enumType(
                EnumTypeDefinition(
                    description: describe(t.description, written: writtenDescription(t.astNode)), name: Name(t.name),
                    directives: t.directives,
                    values: t.values.map {
                        EnumValueDefinition(
                            description: describe($0.description, written: $0.astNode?.description), name: Name($0.name),
                            directives: $0.directives)
                    }))
        case .inputObject(let t):
            return .inputObject(
                InputObjectTypeDefinition(
                    description: describe(t.description, written: writtenDescription(t.astNode)), name: Name(t.name),
                    directives: t.directives, fields: t.fields.map(inputValueDefinition)))
        }
    }

    static func writtenDescription(_ definition: TypeDefinition?) -> StringValue? {
        switch definition {
        case .scalar(let d)?: d.description
        case .object(let d)?, .interface(let d)?: d.description
        case .union(let d)?: d.description
        case .enumType(let d)?: d.description
        case .inputObject(let d)?: d.description
        case nil: nil
        }
    }

    static func fieldDefinition(_ field: GraphQLField) -> FieldDefinition {
        FieldDefinition(
            description: describe(field.description, written: field.astNode?.description), name: Name(field.name),
            arguments: field.arguments.map(inputValueDefinition), type: typeReference(field.type),
            directives: field.directives)
    }

    static func inputValueDefinition(_ argument: GraphQLArgument) -> InputValueDefinition {
        InputValueDefinition(
            description: describe(argument.description, written: argument.astNode?.description), name: Name(argument.name),
            type: typeReference(argument.type), defaultValue: argument.defaultValue, directives: argument.directives)
    }

    static func directiveDefinition(_ directive: GraphQLDirective) -> DirectiveDefinition {
        DirectiveDefinition(
            description: describe(directive.description, written: directive.astNode?.description),
            name: Name(directive.name), arguments: directive.arguments.map(inputValueDefinition),
            isRepeatable: directive.isRepeatable, locations: directive.locations.map { Name($0.rawValue) })
    }

    static func typeReference(_ type: GraphQLType) -> TypeReference {
        switch type {
        case .named(let t): .named(NamedType(name: Name(t.name)))
        case .list(let t): .list(ListType(type: typeReference(t)))
        case .nonNull(let t): .nonNull(NonNullType(type: typeReference(t)))
        }
    }
}
