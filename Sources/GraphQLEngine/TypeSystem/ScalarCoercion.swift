import GraphQLLanguage

/// How a scalar's values cross the boundary (§3.5): out of resolvers into the
/// response (`serialize`), and in from variables (`parseValue`) or literals in
/// the document (`parseLiteral`).
///
/// Coerced input values are ``JSONValue``s; a custom scalar such as `DateTime`
/// keeps its string there and the resolver that reads the argument parses it.
public struct ScalarCoercion: Sendable {
    public var serialize: @Sendable (any Sendable) throws -> JSONValue
    public var parseValue: @Sendable (JSONValue) throws -> JSONValue
    public var parseLiteral: @Sendable (Value, JSONObject) throws -> JSONValue

    public init(
        serialize: @escaping @Sendable (any Sendable) throws -> JSONValue,
        parseValue: @escaping @Sendable (JSONValue) throws -> JSONValue,
        parseLiteral: @escaping @Sendable (Value, JSONObject) throws -> JSONValue
    ) {
        self.serialize = serialize
        self.parseValue = parseValue
        self.parseLiteral = parseLiteral
    }

    /// For custom scalars without rules of their own: values pass through as JSON.
    public static let passThrough = ScalarCoercion(
        serialize: { value in try JSONValue(resolved: value) },
        parseValue: { $0 },
        parseLiteral: { literal, variables in try JSONValue(literal: literal, variables: variables) }
    )
}

extension JSONValue {
    /// Converts a resolved Swift value to JSON: JSON itself, strings, numbers, booleans, arrays.
    /// - Throws: ``CoercionError`` for anything else.
    public init(resolved value: any Sendable) throws {
        switch value {
        case let v as JSONValue: self = v
        case let v as String: self = .string(v)
        case let v as Int: self = .int(v)
        case let v as Bool: self = .bool(v)
        case let v as Double: self = .double(v)
        case let v as Int32: self = .int(Int(v))
        case let v as Int64: self = .int(Int(v))
        case let v as Float: self = .double(Double(v))
        case let v as [any Sendable]: self = .array(try v.map { try JSONValue(resolved: $0) })
        case let v as JSONObject: self = .object(v)
        default: throw CoercionError("Cannot represent value as JSON: \(value)")
        }
    }

    /// The JSON value of a literal, with variables replaced by their values.
    public init(literal: GraphQLLanguage.Value, variables: JSONObject) throws {
        switch literal {
        case .variable(let v): self = variables[v.name.value] ?? .null
        case .int(let v): self = Int(v.value).map(JSONValue.int) ?? .double(Double(v.value) ?? .nan)
        case .float(let v): self = .double(Double(v.value) ?? .nan)
        case .string(let v): self = .string(v.value)
        case .boolean(let v): self = .bool(v.value)
        case .null: self = .null
        case .enumValue(let v): self = .string(v.value)
        case .list(let v): self = .array(try v.values.map { try JSONValue(literal: $0, variables: variables) })
        case .object(let v):
            var object = JSONObject()
            for field in v.fields { object[field.name.value] = try JSONValue(literal: field.value, variables: variables) }
            self = .object(object)
        }
    }
}

/// graphql-js's `inspect` for messages: strings quoted, lists and objects spelled out.
func inspect(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    case .string(let s): return JSONWriter.string(.string(s))
    case .array(let items): return "[" + items.map(inspect).joined(separator: ", ") + "]"
    case .object(let object):
        if object.isEmpty { return "{}" }
        return "{ " + object.map { "\($0.0): \(inspect($0.1))" }.joined(separator: ", ") + " }"
    }
}

/// Prints a Swift value in messages.
func inspect(_ value: any Sendable) -> String {
    if let json = try? JSONValue(resolved: value) { return inspect(json) }
    return String(describing: value)
}
