/// An input value literal (§2.9). Inside a `Const` production the parser never
/// produces ``Value/variable(_:)``.
///
/// Not `indirect`: lists and objects hold their children in arrays, which already
/// live on the heap, so a scalar value costs no allocation of its own.
public enum Value: Sendable, Hashable {
    case variable(Variable)
    case int(IntValue)
    case float(FloatValue)
    case string(StringValue)
    case boolean(BooleanValue)
    case null(NullValue)
    case enumValue(EnumValue)
    case list(ListValue)
    case object(ObjectValue)

    public var range: SourceRange {
        switch self {
        case .variable(let v): v.range
        case .int(let v): v.range
        case .float(let v): v.range
        case .string(let v): v.range
        case .boolean(let v): v.range
        case .null(let v): v.range
        case .enumValue(let v): v.range
        case .list(let v): v.range
        case .object(let v): v.range
        }
    }
}

/// Variable (§2.10): `$ Name`.
public struct Variable: Sendable, Hashable {
    // The name is stored as its value and its start (see ``Name/packedStart(of:)``),
    // and of the variable only the start: it ends where its name ends. Twenty-four
    // bytes in all, so that a ``Value`` takes 25 (its stride stays 32) and an
    // ``Argument`` can keep its name's start in the 7 bytes after it (48 in all).
    private var nameValue: String
    private var nameStart: UInt32
    /// Where the `$` is.
    private var storedStart: UInt32

    /// The name, after the `$`.
    public var name: Name {
        get { Name(value: nameValue, packedStart: nameStart) }
        set {
            nameValue = newValue.value
            nameStart = Name.packedStart(of: newValue.range)
        }
    }

    /// From the `$` to the end of the name (setting it keeps only the start).
    public var range: SourceRange {
        get { SourceRange(start: Int(storedStart), end: name.range.end) }
        set { storedStart = UInt32(truncatingIfNeeded: newValue.start) }
    }

    public init(name: Name, range: SourceRange = .none) {
        self.nameValue = name.value
        self.nameStart = Name.packedStart(of: name.range)
        self.storedStart = UInt32(truncatingIfNeeded: range.start)
    }
}

/// IntValue (§2.9.1), kept as its source text so no precision is lost before coercion.
public struct IntValue: Sendable, Hashable {
    public var value: String
    public var range: SourceRange

    public init(_ value: String, range: SourceRange = .none) {
        self.value = value
        self.range = range
    }
}

/// FloatValue (§2.9.2), kept as its source text.
public struct FloatValue: Sendable, Hashable {
    public var value: String
    public var range: SourceRange

    public init(_ value: String, range: SourceRange = .none) {
        self.value = value
        self.range = range
    }
}

/// StringValue (§2.9.4): the cooked value, and whether it was written as a block string.
public struct StringValue: Sendable, Hashable {
    public var value: String
    // `range` before `isBlock`: 25 bytes, not 28 (a `Bool` before a 4-aligned
    // range would pad it), which is what lets a ``Value`` leave room for an
    // ``Argument``'s name start in its last four bytes.
    public var range: SourceRange
    public var isBlock: Bool

    public init(_ value: String, isBlock: Bool = false, range: SourceRange = .none) {
        self.value = value
        self.isBlock = isBlock
        self.range = range
    }
}

/// BooleanValue (§2.9.3).
public struct BooleanValue: Sendable, Hashable {
    public var value: Bool
    public var range: SourceRange

    public init(_ value: Bool, range: SourceRange = .none) {
        self.value = value
        self.range = range
    }
}

/// NullValue (§2.9.5).
public struct NullValue: Sendable, Hashable {
    public var range: SourceRange

    public init(range: SourceRange = .none) { self.range = range }
}

/// EnumValue (§2.9.6): a name other than `true`, `false` and `null`.
public struct EnumValue: Sendable, Hashable {
    public var value: String
    public var range: SourceRange

    public init(_ value: String, range: SourceRange = .none) {
        self.value = value
        self.range = range
    }
}

/// ListValue (§2.9.7): `[ Value* ]`.
public struct ListValue: Sendable, Hashable {
    public var values: [Value]
    public var range: SourceRange

    public init(_ values: [Value], range: SourceRange = .none) {
        self.values = values
        self.range = range
    }
}

/// ObjectValue (§2.9.8): `{ ObjectField* }`.
public struct ObjectValue: Sendable, Hashable {
    public var fields: [ObjectField]
    public var range: SourceRange

    public init(_ fields: [ObjectField], range: SourceRange = .none) {
        self.fields = fields
        self.range = range
    }
}

/// ObjectField (§2.9.8): `Name : Value`.
public struct ObjectField: Sendable, Hashable {
    public var value: Value
    // The name as its start and value (``Name/packedStart(of:)``), the start in the
    // padding at the end of `value`: 48 bytes instead of 56.
    var nameStart: UInt32
    var nameValue: String

    /// The field's name.
    public var name: Name {
        get { Name(value: nameValue, packedStart: nameStart) }
        set {
            nameValue = newValue.value
            nameStart = Name.packedStart(of: newValue.range)
        }
    }

    /// From the name to the end of the value (derived, not stored).
    public var range: SourceRange { SourceRange(start: name.range.start, end: value.range.end) }
}

extension ObjectField {
    // In an extension, so that the parser can use the memberwise initializer.
    public init(name: Name, value: Value) {
        self.init(value: value, nameStart: Name.packedStart(of: name.range), nameValue: name.value)
    }
}
