import GraphQLLanguage

/// Type relations shared by validation, input coercion and the schema's own checks:
/// graphql-js's `typeFromAST` and `isTypeSubTypeOf`.
extension GraphQLSchema {
    /// The schema type a type reference names (`[Dog!]` → list of non-null Dog), or nil
    /// if its named type is unknown.
    public func type(from reference: TypeReference) -> GraphQLType? {
        switch reference {
        case .named(let named): return type(named: named.name.value).map(GraphQLType.named)
        case .list(let list): return type(from: list.type).map(GraphQLType.list)
        case .nonNull(let nonNull): return type(from: nonNull.type).map(GraphQLType.nonNull)
        }
    }

    /// Whether a value of `maybeSubType` may be used where `superType` is expected
    /// (§5.8.5 AreTypesCompatible, extended to abstract types as graphql-js does).
    public func isTypeSubType(_ maybeSubType: GraphQLType, of superType: GraphQLType) -> Bool {
        switch (maybeSubType, superType) {
        case (.nonNull(let sub), .nonNull(let sup)): return isTypeSubType(sub, of: sup)
        case (_, .nonNull): return false
        case (.nonNull(let sub), _): return isTypeSubType(sub, of: superType)
        case (.list(let sub), .list(let sup)): return isTypeSubType(sub, of: sup)
        case (_, .list), (.list, _): return false
        case (.named(let sub), .named(let sup)):
            if sub == sup { return true }
            guard sup.isAbstract else { return false }
            switch sub {
            case .object, .interface: return isSubType(sup, sub)
            default: return false
            }
        }
    }
}
