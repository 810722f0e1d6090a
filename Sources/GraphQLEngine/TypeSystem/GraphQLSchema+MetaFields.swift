import GraphQLLanguage

extension GraphQLSchema {
    /// The field `name` as selected on `parentType`, meta-fields included (§4.1, §4.2):
    /// `__typename` on any composite type, `__schema` and `__type` on the query root.
    ///
    /// Validation and execution both look fields up through this, so they agree on
    /// what exists.
    public func fieldDefinition(parentType: GraphQLNamedType, name: String) -> GraphQLField? {
        if name.hasPrefix("__") {
            switch name {
            case "__typename" where parentType.isComposite: return metaFields.typename
            case "__schema" where parentType == .object(queryType): return metaFields.schema
            case "__type" where parentType == .object(queryType): return metaFields.type
            default: break
            }
        }
        return parentType.field(named: name)
    }
}

/// The three meta-fields, typed against this schema's introspection types.
public struct MetaFields: Sendable {
    public let typename: GraphQLField
    public let schema: GraphQLField
    public let type: GraphQLField

    init(typeMap: [String: GraphQLNamedType]) {
        let string = typeMap["String"]!
        typename = GraphQLField(
            name: "__typename", type: .nonNull(.named(string)),
            description: "The name of the current Object type at runtime.")
        schema = GraphQLField(
            name: "__schema", type: .nonNull(.named(typeMap["__Schema"]!)),
            description: "Access the current type schema of this server.", resolver: Introspection.schemaMetaField)
        type = GraphQLField(
            name: "__type", type: .named(typeMap["__Type"]!), description: "Request the type information of a single type.",
            arguments: [GraphQLArgument(name: "name", type: .nonNull(.named(string)))], resolver: Introspection.typeMetaField)
    }
}
