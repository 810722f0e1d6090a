/// A row that does not have the shape the migrations promise (an id that is not a UUID, a
/// timestamp this code cannot read). Stores treat it as `BACKEND_UNAVAILABLE`, with the detail
/// in their log: the client can do nothing about it.
public struct MalformedRow: Error, Sendable, CustomStringConvertible {
    public var detail: String

    public init(_ detail: String) { self.detail = detail }

    public var description: String { "malformed row: \(detail)" }
}
