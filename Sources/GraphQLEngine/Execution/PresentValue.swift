/// A resolved value as completion sees it: nil when it is null, whichever way it says so.
///
/// A resolver says null with `nil`, but data read from JSON carries null as a value:
/// the items of a JSON array (`[1, null]`), or a resolver that hands back a JSON member
/// as it found it. §6.4.3 CompleteValue begins "If result is null (or another internal
/// value similar to null such as undefined), return null", before the type is looked at;
/// without this, a JSON null was completed as a value: an enum or a list item raised a
/// field error ("cannot represent value: null", "Expected Iterable"), an abstract type
/// found no object type, and an object completed into an object of nulls, so a non-null
/// item position kept its null item instead of nulling the list.
///
/// The check reads the value's dynamic type only (``exactly(_:_:)``), so it costs a
/// compare on the values that are not JSON.
@inline(__always)
func presentValue(_ value: (any Sendable)?) -> (any Sendable)? {
    guard let value else { return nil }
    if let json = exactly(value, JSONValue.self), json.isNull { return nil }
    return value
}
