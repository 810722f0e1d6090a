import GraphQLLanguage

/// An error as a GraphQL response carries it (§7.1.6): a message, the source
/// locations it concerns, the response path of the field that failed, and
/// `extensions` (where the gateway puts its `code`).
public struct GraphQLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var locations: [SourceLocation]
    public var path: [PathComponent]?
    public var extensions: JSONObject?

    public init(
        _ message: String, locations: [SourceLocation] = [], path: [PathComponent]? = nil,
        extensions: JSONObject? = nil
    ) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
    }

    /// An error located at AST ranges of `source`.
    public init(_ message: String, ranges: [SourceRange], source: Source?, extensions: JSONObject? = nil) {
        self.message = message
        self.locations = source.map { source in ranges.map { source.location(of: $0.start) } } ?? []
        self.extensions = extensions
    }

    /// A syntax error as a request error.
    public init(_ syntaxError: GraphQLSyntaxError) {
        self.init(syntaxError.message, locations: [syntaxError.location])
    }

    public var description: String { message }

    /// The error as response JSON, keys in the spec's order.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("message", .string(message))
        if !locations.isEmpty {
            object.append(
                "locations",
                .array(locations.map { .object(JSONObject([("line", .int($0.line)), ("column", .int($0.column))])) }))
        }
        if let path { object.append("path", .array(path.map(\.json))) }
        if let extensions, !extensions.isEmpty { object.append("extensions", .object(extensions)) }
        return .object(object)
    }
}

/// One step of a response path: a field's response key or a list index.
public enum PathComponent: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var json: JSONValue {
        switch self {
        case .key(let k): .string(k)
        case .index(let i): .int(i)
        }
    }

    public var description: String {
        switch self {
        case .key(let k): k
        case .index(let i): String(i)
        }
    }
}

/// A value that could not be coerced to its type; the message says why.
public struct CoercionError: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
