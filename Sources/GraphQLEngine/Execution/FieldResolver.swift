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
    /// Inline when the value is at hand (`ready` answers ``Readiness/ready(_:)``), otherwise
    /// concurrently like an async resolver: a loader's value that an earlier batch already
    /// brought (a follow state that came with its page) costs no task and no suspension.
    case readyOrAsync(
        ready: @Sendable (ResolveInfo) throws -> Readiness,
        otherwise: @Sendable (ResolveInfo) async throws -> (any Sendable)?)
}

/// What a ``FieldResolver/readyOrAsync(ready:otherwise:)`` resolver can tell without waiting.
public enum Readiness: Sendable {
    /// The field's value, now (nil for null).
    case ready((any Sendable)?)
    /// Not without waiting: the async resolver runs.
    case notReady
}

/// What a resolver knows about the field it resolves.
///
/// Built for every field, so it is small: the parent, the arguments, and references to the
/// planned field and the execution. The references are strong (issue 38): a resolver that keeps
/// its info past the request (in a task, a cache) keeps those two objects alive, and reads the
/// same values, rather than reaching freed memory. Keeping it is still wasteful; it is no
/// longer unsafe.
public struct ResolveInfo: @unchecked Sendable {
    // @unchecked: `PlannedField` is not `Sendable` (it builds its sub-plan lazily); what a
    // resolver reads of it (arguments, definition, parent type) is immutable once planned.
    /// The value of the parent object (the root value for root fields).
    public let parent: any Sendable
    let plan: PlannedField
    let execution: ExecutionContext

    /// The coerced arguments, defaults applied (§6.4.1 CoerceArgumentValues).
    public var arguments: ArgumentValues { plan.argumentValues }

    /// The per-request context given to the executor (viewer, loaders...).
    public var context: any Sendable { execution.context }
    /// The field's definition.
    public var field: GraphQLField { plan.definition! }
    /// The object type the field is read on.
    public var parentType: GraphQLObjectType { plan.parentType }
    /// The schema being executed.
    public var schema: GraphQLSchema { execution.schema }

    /// The parent value as `T`, or an error naming the type that was expected.
    @inlinable
    public func parent<T>(as type: T.Type) throws -> T {
        // Exactly `T` is the common case and needs no general cast (see `exactly`).
        if let value = exactly(parent, T.self) { return value }
        guard let value = parent as? T else { throw wrongParent(T.self) }
        return value
    }

    @usableFromInline
    func wrongParent(_ type: Any.Type) -> ResolverError {
        ResolverError("Expected a \(type) parent for \(parentType.name).\(field.name), got \(Swift.type(of: parent))")
    }

    /// The request context as `T`.
    @inlinable
    public func context<T>(as type: T.Type) throws -> T {
        if let value = exactly(context, T.self) { return value }
        guard let value = context as? T else { throw ResolverError("Expected a \(T.self) request context") }
        return value
    }
}

/// A resolved list value. Arrays conform, so completing a list visits its
/// elements without first converting `[Element]` into a new `[any Sendable]`.
public protocol ResolvedList {
    var resolvedCount: Int { get }
    /// Each element; optional elements are unwrapped (nil is a null item).
    func forEachResolved(_ body: (Int, (any Sendable)?) -> Void)
}

extension Array: ResolvedList {
    public var resolvedCount: Int { count }

    public func forEachResolved(_ body: (Int, (any Sendable)?) -> Void) {
        // This runs unspecialized (through the protocol, for any `Element`), so it
        // walks indices: `enumerated()` looked up the metadata of its iterator and
        // of an optional tuple for every list.
        // Decided once per list: `[Profile?]` elements must be unwrapped, or a nil
        // would arrive boxed as a non-nil value.
        if Element.self is any OptionalValue.Type {
            for i in 0..<count { body(i, (self[i] as! any OptionalValue).unwrapped) }
        } else if Element.self == (any Sendable).self {
            // `[any Sendable]` may hold a nil boxed as a value (`String?.none as any Sendable`):
            // each element is asked, at the cost of a cast, in these lists only.
            for i in 0..<count {
                let element = assumeSendable(self[i])
                if let optional = element as? any OptionalValue { body(i, optional.unwrapped) } else { body(i, element) }
            }
        } else {
            for i in 0..<count { body(i, assumeSendable(self[i])) }
        }
    }
}

/// `value` as `any Sendable`, for the elements of lists that resolvers returned.
///
/// Resolvers return `any Sendable`, so every list element arriving here is Sendable; but
/// ``ResolvedList`` sees `Array`'s `Element` unconstrained (a conformance conditional on a
/// marker protocol cannot be cast to at run time), and `as` does not compile for it. A forced
/// cast compiled but warned that it always succeeds: `Sendable` is a marker protocol, checked
/// only by the compiler, so `any Sendable` is laid out exactly as `Any` and no run-time check
/// exists to make. This says so once, instead of a warning at every cast.
///
/// An `any Sendable` element is passed on as it is: put in an `Any` from this generic
/// context it would arrive boxed twice (an `any Sendable` inside the `Any`), which the dynamic
/// cast used to unwrap and exact type checks (``exactly(_:_:)``) do not.
@inline(__always)
func assumeSendable<T>(_ value: T) -> any Sendable {
    if T.self == (any Sendable).self { return unsafeBitCast(value, to: (any Sendable).self) }
    return unsafeBitCast(value as Any, to: (any Sendable).self)
}

/// Lets a list unwrap its optional elements without knowing their wrapped type.
protocol OptionalValue {
    var unwrapped: (any Sendable)? { get }
}

extension Optional: OptionalValue {
    var unwrapped: (any Sendable)? {
        switch self {
        case .none: return nil
        case .some(let wrapped):
            if let nested = wrapped as? any OptionalValue { return nested.unwrapped }
            return assumeSendable(wrapped)
        }
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
