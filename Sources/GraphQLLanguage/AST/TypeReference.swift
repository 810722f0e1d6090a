/// Type (§2.11): a named type, a list type `[T]` or a non-null type `T!`.
public enum TypeReference: Sendable, Hashable, CustomStringConvertible {
    case named(NamedType)
    indirect case list(ListType)
    case nonNull(NonNullType)

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
///
/// The wrapped type is stored as a named type inline or a boxed list type, never
/// as another ``TypeReference``: `T!!` is not GraphQL, and `String!`, the most
/// common type in a schema, then costs no allocation of its own.
public struct NonNullType: Sendable, Hashable {
    private enum Nullable: Sendable, Hashable {
        case named(NamedType)
        indirect case list(ListType)
    }

    private var nullable: Nullable
    public var range: SourceRange

    /// The type made non-null: a ``TypeReference/named(_:)`` or ``TypeReference/list(_:)``.
    /// Setting a non-null type keeps its inner type (`T!` made non-null is still `T!`).
    public var type: TypeReference {
        get {
            switch nullable {
            case .named(let t): .named(t)
            case .list(let t): .list(t)
            }
        }
        set { nullable = NonNullType.nullable(newValue) }
    }

    /// `type` made non-null. A `type` that is already non-null is not wrapped
    /// again (`T!!` cannot be written in GraphQL): the result is its inner type
    /// made non-null once, `T!`, with `range`.
    public init(type: TypeReference, range: SourceRange = .none) {
        self.nullable = NonNullType.nullable(type)
        self.range = range
    }

    private static func nullable(_ type: TypeReference) -> Nullable {
        switch type {
        case .named(let t): .named(t)
        case .list(let t): .list(t)
        case .nonNull(let t): t.nullable
        }
    }
}
