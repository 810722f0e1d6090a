import GraphQLLanguage

/// The five built-in scalars (§3.5.1-§3.5.5) with graphql-js's coercion rules and messages.
public enum SpecifiedScalars {
    public static func makeAll() -> [GraphQLScalarType] {
        [makeString(), makeInt(), makeFloat(), makeBoolean(), makeID()]
    }

    static func makeInt() -> GraphQLScalarType {
        GraphQLScalarType(
            name: "Int",
            description: "The `Int` scalar type represents non-fractional signed whole numeric values. Int can represent values between -(2^31) and 2^31 - 1.",
            coercion: ScalarCoercion(
                serialize: { value in
                    // The common case first, without the runtime's general cast (see `exactly`).
                    if let v = exactly(value, Int.self), v >= -2_147_483_648, v <= 2_147_483_647 { return .int(v) }
                    let number: Double
                    switch value {
                    case let v as Int: number = Double(v)
                    case let v as Int32: return .int(Int(v))
                    case let v as Int64: number = Double(v)
                    case let v as Double: number = v
                    case let v as Bool: return .int(v ? 1 : 0)
                    case let v as String where Double(v) != nil: number = Double(v)!
                    case let v as JSONValue: return try SpecifiedScalars.intFromJSON(v, serializing: true)
                    default: throw CoercionError("Int cannot represent non-integer value: \(inspect(value))")
                    }
                    guard number == number.rounded(), number.isFinite else {
                        throw CoercionError("Int cannot represent non-integer value: \(inspect(value))")
                    }
                    guard number >= -2_147_483_648 && number <= 2_147_483_647 else {
                        throw CoercionError("Int cannot represent non 32-bit signed integer value: \(inspect(value))")
                    }
                    return .int(Int(number))
                },
                parseValue: { try intFromJSON($0, serializing: false) },
                parseLiteral: { literal, _ in
                    guard case .int(let v) = literal else {
                        throw CoercionError("Int cannot represent non-integer value: \(Printer.print(literal))")
                    }
                    guard let i = Int(v.value), i >= -2_147_483_648 && i <= 2_147_483_647 else {
                        throw CoercionError("Int cannot represent non 32-bit signed integer value: \(v.value)")
                    }
                    return .int(i)
                }))
    }

    static func intFromJSON(_ value: JSONValue, serializing: Bool) throws -> JSONValue {
        let number: Double
        switch value {
        case .int(let i): number = Double(i)
        case .double(let d) where d == d.rounded() && d.isFinite: number = d
        default: throw CoercionError("Int cannot represent non-integer value: \(inspect(value))")
        }
        guard number >= -2_147_483_648 && number <= 2_147_483_647 else {
            throw CoercionError("Int cannot represent non 32-bit signed integer value: \(inspect(value))")
        }
        return .int(Int(number))
    }

    static func makeFloat() -> GraphQLScalarType {
        GraphQLScalarType(
            name: "Float",
            description: "The `Float` scalar type represents signed double-precision fractional values as specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point).",
            coercion: ScalarCoercion(
                serialize: { value in
                    if let v = exactly(value, Double.self), v.isFinite { return .double(v) }
                    let number: Double?
                    switch value {
                    case let v as Double: number = v
                    case let v as Int: number = Double(v)
                    case let v as Float: number = Double(v)
                    case let v as Bool: number = v ? 1 : 0
                    case let v as String: number = Double(v)
                    case let v as JSONValue: number = v.doubleValue
                    default: number = nil
                    }
                    guard let number, number.isFinite else {
                        throw CoercionError("Float cannot represent non numeric value: \(inspect(value))")
                    }
                    return .double(number)
                },
                parseValue: { value in
                    guard let number = value.doubleValue, number.isFinite else {
                        throw CoercionError("Float cannot represent non numeric value: \(inspect(value))")
                    }
                    return .double(number)
                },
                parseLiteral: { literal, _ in
                    switch literal {
                    case .int(let v): return .double(Double(v.value) ?? 0)
                    case .float(let v): return .double(Double(v.value) ?? 0)
                    default: throw CoercionError("Float cannot represent non numeric value: \(Printer.print(literal))")
                    }
                }))
    }

    static func makeString() -> GraphQLScalarType {
        GraphQLScalarType(
            name: "String",
            description: "The `String` scalar type represents textual data, represented as UTF-8 character sequences. The String type is most often used by GraphQL to represent free-form human-readable text.",
            coercion: ScalarCoercion(
                serialize: { value in
                    if let v = exactly(value, String.self) { return .string(v) }
                    switch value {
                    case let v as String: return .string(v)
                    case let v as Int: return .string(String(v))
                    case let v as Bool: return .string(v ? "true" : "false")
                    case let v as Double where v.isFinite: return .string(inspect(JSONValue.double(v)))
                    case let v as JSONValue:
                        switch v {
                        case .string: return v
                        case .int(let i): return .string(String(i))
                        case .bool(let b): return .string(b ? "true" : "false")
                        default: break
                        }
                    default: break
                    }
                    throw CoercionError("String cannot represent value: \(inspect(value))")
                },
                parseValue: { value in
                    guard case .string = value else {
                        throw CoercionError("String cannot represent a non string value: \(inspect(value))")
                    }
                    return value
                },
                parseLiteral: { literal, _ in
                    guard case .string(let v) = literal else {
                        throw CoercionError("String cannot represent a non string value: \(Printer.print(literal))")
                    }
                    return .string(v.value)
                }))
    }

    static func makeBoolean() -> GraphQLScalarType {
        GraphQLScalarType(
            name: "Boolean",
            description: "The `Boolean` scalar type represents `true` or `false`.",
            coercion: ScalarCoercion(
                serialize: { value in
                    if let v = exactly(value, Bool.self) { return .bool(v) }
                    switch value {
                    case let v as Bool: return .bool(v)
                    case let v as Int: return .bool(v != 0)
                    case let v as Double where v.isFinite: return .bool(v != 0)
                    case let v as JSONValue:
                        if case .bool = v { return v }
                        if let d = v.doubleValue { return .bool(d != 0) }
                    default: break
                    }
                    throw CoercionError("Boolean cannot represent a non boolean value: \(inspect(value))")
                },
                parseValue: { value in
                    guard case .bool = value else {
                        throw CoercionError("Boolean cannot represent a non boolean value: \(inspect(value))")
                    }
                    return value
                },
                parseLiteral: { literal, _ in
                    guard case .boolean(let v) = literal else {
                        throw CoercionError("Boolean cannot represent a non boolean value: \(Printer.print(literal))")
                    }
                    return .bool(v.value)
                }))
    }

    static func makeID() -> GraphQLScalarType {
        GraphQLScalarType(
            name: "ID",
            description: "The `ID` scalar type represents a unique identifier, often used to refetch an object or as key for a cache. The ID type appears in a JSON response as a String; however, it is not intended to be human-readable. When expected as an input type, any string (such as `\"4\"`) or integer (such as `4`) input value will be accepted as an ID.",
            coercion: ScalarCoercion(
                serialize: { value in
                    if let v = exactly(value, String.self) { return .string(v) }
                    switch value {
                    case let v as String: return .string(v)
                    case let v as Int: return .string(String(v))
                    case let v as JSONValue:
                        if case .string = v { return v }
                        if case .int(let i) = v { return .string(String(i)) }
                    default:
                        if let convertible = value as? CustomStringConvertible, !(value is Double), !(value is Bool) {
                            return .string(convertible.description)
                        }
                    }
                    throw CoercionError("ID cannot represent value: \(inspect(value))")
                },
                parseValue: { value in
                    switch value {
                    case .string: return value
                    case .int(let i): return .string(String(i))
                    default: throw CoercionError("ID cannot represent value: \(inspect(value))")
                    }
                },
                parseLiteral: { literal, _ in
                    switch literal {
                    case .string(let v): return .string(v.value)
                    case .int(let v): return .string(v.value)
                    default:
                        throw CoercionError("ID cannot represent a non-string and non-integer value: \(Printer.print(literal))")
                    }
                }))
    }
}
