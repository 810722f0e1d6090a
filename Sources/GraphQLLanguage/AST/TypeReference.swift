/// Type (§2.11): a named type, a list type `[T]` or a non-null type `T!`.
public enum TypeReference: Sendable, Hashable, CustomStringConvertible {
    case named(NamedType)
    indirect case list(ListType)
    indirect case nonNull(NonNullType)

    public var range: SourceRange {
        switch self {
        case .named(let t): t.range
        case .list(let t): t.range
        case .nonNull(let t): t.range
        }
    }

    /// The innermost named type: `User` for `[User!]!`.
    public var namedType: NamedType {
        switch self {
        case .named(let t): t
        case .list(let t): t.type.namedType
        case .nonNull(let t): t.type.namedType
        }
    }

    /// The type as written in GraphQL: `[User!]!`.
    public var description: String {
        switch self {
        case .named(let t): t.name.value
        case .list(let t): "[\(t.type)]"
        case .nonNull(let t): "\(t.type)!"
        }
    }
}

/// NamedType (§2.11): a type referenced by name.
public struct NamedType: Sendable, Hashable {
    public var name: Name
    public var range: SourceRange

    public init(name: Name, range: SourceRange = .none) {
        self.name = name
        self.range = range
    }
}

/// ListType (§2.11): `[ Type ]`.
public struct ListType: Sendable, Hashable {
    public var type: TypeReference
    public var range: SourceRange

    public init(type: TypeReference, range: SourceRange = .none) {
        self.type = type
        self.range = range
    }
}

/// NonNullType (§2.11): `NamedType !` or `ListType !`.
public struct NonNullType: Sendable, Hashable {
    public var type: TypeReference
    public var range: SourceRange

    public init(type: TypeReference, range: SourceRange = .none) {
        self.type = type
        self.range = range
    }
}
