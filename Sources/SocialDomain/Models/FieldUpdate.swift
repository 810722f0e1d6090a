/// One field of a partial update: absent (keep), explicit null (clear), or a new value.
///
/// GraphQL tells "absent" from "null" in input objects; this keeps the difference all the way
/// to the store.
///
/// ```swift
/// var input = ProfileUpdateInput()
/// input.bio = .set("Crimper")   // input.homeGym stays .keep, input.displayName = .clear empties it
/// ```
public enum FieldUpdate<Value: Sendable & Hashable>: Sendable, Hashable {
    case keep
    case clear
    case set(Value)

    /// Applies the update to a current value.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: current
        case .clear: nil
        case .set(let value): value
        }
    }

    /// Transforms the value of a `.set`.
    public func map<T>(_ transform: (Value) throws -> T) rethrows -> FieldUpdate<T> {
        switch self {
        case .keep: .keep
        case .clear: .clear
        case .set(let value): .set(try transform(value))
        }
    }

    public var isKeep: Bool {
        if case .keep = self { return true }
        return false
    }
}
