/// A JSON value, the engine's one representation of runtime data: request
/// variables, coerced arguments, fixture data and the response tree.
///
/// Objects keep their keys in order (``JSONObject``), because a GraphQL response
/// lists fields in selection order (§7.2). Integers and floating-point numbers are
/// distinct, so `1` and `1.0` survive a round trip.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var isNull: Bool { if case .null = self { true } else { false } }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var intValue: Int? { if case .int(let i) = self { i } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// A number as a double (ints included).
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// Object member lookup; nil when not an object or the key is absent.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

/// An ordered JSON object: keys in insertion order, lookups by key.
///
/// Small objects (the common case: a response object, a handful of variables) are searched
/// linearly, which is cheaper than hashing for a few keys. Past ``indexThreshold`` keys a hash
/// index from key to position is built once and kept up to date, so lookups and insertions stay
/// O(1) and an object with n keys costs O(n) to build: a request body with 80,000 distinct
/// keys must not cost 80,000² comparisons before anyone has checked who sent it.
///
/// Equality and hashing look at the keys and values in order, never at the index.
public struct JSONObject: Sendable, Hashable, Sequence {
    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []
    /// Position of every key, present once the object has more than ``indexThreshold`` keys.
    private var index: [String: Int]?

    /// The key count past which lookups go through a hash index instead of a linear scan.
    public static let indexThreshold = 12

    public init() {}

    public init(_ pairs: [(String, JSONValue)]) {
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for (k, v) in pairs { self[k] = v }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`, or nil.
    @inline(__always)
    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = position(of: key) else { return nil }
            return values[i]
        }
        set {
            if let i = position(of: key) {
                if let newValue { values[i] = newValue } else { remove(at: i) }
            } else if let newValue {
                append(key, newValue)
            }
        }
    }

    /// Appends without checking for an existing key (the caller knows it is new).
    public mutating func append(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            if index![key] == nil { index![key] = keys.count - 1 }
        } else if keys.count > Self.indexThreshold {
            buildIndex()
        }
    }

    private mutating func remove(at i: Int) {
        keys.remove(at: i)
        values.remove(at: i)
        if index != nil {
            if keys.count > Self.indexThreshold { buildIndex() } else { index = nil }
        }
    }

    private mutating func buildIndex() {
        var built = [String: Int](minimumCapacity: keys.count)
        // The first position wins, as for a linear scan (``append`` may add a repeated key).
        for (i, key) in keys.enumerated() where built[key] == nil { built[key] = i }
        index = built
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.keys == rhs.keys && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }

    public func makeIterator() -> Zip2Sequence<[String], [JSONValue]>.Iterator {
        zip(keys, values).makeIterator()
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}


extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}
