import GraphQLLanguage

/// How a field gets its value. Bound to the schema at start-up by ``SchemaBinder``.
///
/// The synchronous case is the fast path: a plain read of the parent value runs
/// inline, with no task and no allocation. Async resolvers (store calls, loaders)
/// run concurrently with their siblings; mutation root fields run one at a time.
///
/// A resolver returns the field's value: `nil` for null, a leaf the field's
/// scalar or enum can serialize, a parent value for a nested selection, or an
/// array (`[any Sendable]`-castable) for a list type.
public enum FieldResolver: Sendable {
    case sync(@Sendable (ResolveInfo) throws -> (any Sendable)?)
    case async(@Sendable (ResolveInfo) async throws -> (any Sendable)?)
}

/// What a resolver knows about the field it resolves.
public struct ResolveInfo: Sendable {
    /// The value of the parent object (the root value for root fields).
    public let parent: any Sendable
    /// The coerced arguments, defaults applied (§6.4.1 CoerceArgumentValues).
    public let arguments: ArgumentValues
    /// The per-request context given to the executor (viewer, loaders...).
    public let context: any Sendable
    /// The field's definition.
    public let field: GraphQLField
    /// The object type the field is read on.
    public let parentType: GraphQLObjectType
    /// The schema being executed.
    public let schema: GraphQLSchema

    /// The parent value as `T`, or an error naming the type that was expected.
    public func parent<T>(as type: T.Type) throws -> T {
        guard let value = parent as? T else {
            throw ResolverError("Expected a \(T.self) parent for \(parentType.name).\(field.name), got \(Swift.type(of: parent))")
        }
        return value
    }

    /// The request context as `T`.
    public func context<T>(as type: T.Type) throws -> T {
        guard let value = context as? T else { throw ResolverError("Expected a \(T.self) request context") }
        return value
    }
}

/// Coerced argument values: absent (not given, no default) is different from an explicit null.
public struct ArgumentValues: Sendable {
    public let values: JSONObject

    public init(_ values: JSONObject = JSONObject()) { self.values = values }

    /// The value, `.null` for an explicit null, or nil when the argument is absent.
    public subscript(name: String) -> JSONValue? { values[name] }

    public func string(_ name: String) -> String? { values[name]?.stringValue }
    public func int(_ name: String) -> Int? { values[name]?.intValue }
    public func bool(_ name: String) -> Bool? { values[name]?.boolValue }
    public func contains(_ name: String) -> Bool { values[name] != nil }
}

/// A resolver's own failure; its message goes to the client as the field error's message.
public struct ResolverError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var extensions: JSONObject?

    public init(_ message: String, extensions: JSONObject? = nil) {
        self.message = message
        self.extensions = extensions
    }

    public var description: String { message }
}

/// An error a resolver throws that knows how it should look in the response.
/// The gateway's domain errors conform, so their `code` reaches `extensions`.
public protocol GraphQLErrorConvertible: Error {
    var graphQLMessage: String { get }
    var graphQLExtensions: JSONObject? { get }
}

extension ResolverError: GraphQLErrorConvertible {
    public var graphQLMessage: String { message }
    public var graphQLExtensions: JSONObject? { extensions }
}
