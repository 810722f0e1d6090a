/// `value` as a `T` when its dynamic type is exactly `T`; nil otherwise, including
/// when a general cast (`as? T`) would still succeed (an optional, a subclass, a
/// bridged or protocol-typed value).
///
/// Execution hands every value around as `any Sendable`, so serializing a scalar or
/// reading a resolver's parent is a cast on every field of a response. The runtime's
/// general cast (`swift_dynamicCast`) has to consider optionals, class hierarchies,
/// bridging and protocol conformances, and it was 15% of executing the bench query.
/// A value of exactly the expected type, by far the common case, needs only its
/// dynamic type read and compared with `T`. Callers try this first and fall back to
/// `as?`, so what converts is unchanged.
@inlinable @inline(__always)
func exactly<T>(_ value: any Sendable, _ type: T.Type) -> T? {
    // The dynamic type is read from the existential without opening it.
    guard Swift.type(of: value) == T.self else { return nil }
    func open<V>(_ opened: V) -> T {
        // Same type: the bytes are a `T`.
        unsafeBitCast(opened, to: T.self)
    }
    return open(value)
}
