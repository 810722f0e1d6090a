/// A validated slice request for a follow list: direction, size and an optional keyset.
///
/// Built by ``PageRequest/validate(first:after:last:before:list:)`` from Relay's
/// `first/after/last/before`; stores receive only validated values.
///
/// ```swift
/// let page = try PageRequest.validate(first: 10, after: cursor, last: nil, before: nil,
///                                     list: FollowList(.followers, of: profileId))
/// ```
public struct PageRequest: Sendable, Hashable {
    public enum Direction: Sendable, Hashable {
        /// Newest first, starting after ``PageRequest/cursor`` (`first`/`after`).
        case forward
        /// The `limit` entries just before ``PageRequest/cursor`` (`last`/`before`), still returned
        /// newest first.
        case backward
    }

    public var direction: Direction
    public var limit: Int
    public var cursor: FollowKeyset?

    public init(direction: Direction = .forward, limit: Int = PageSize.lists.defaultSize, cursor: FollowKeyset? = nil) {
        self.direction = direction
        self.limit = limit
        self.cursor = cursor
    }

    /// Checks Relay arguments for one list.
    ///
    /// Rules: `first`/`last` in ``PageSize/lists``; forward and backward arguments cannot be
    /// mixed; a cursor must be one this list issued (same kind and owner).
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` naming the argument.
    public static func validate(
        first: Int?, after: String?, last: Int?, before: String?, list: FollowList
    ) throws -> PageRequest {
        try validate(first: first, after: after, last: last, before: before) { cursor in
            guard case .follow(let cursorList, let key) = cursor, cursorList == list else { return nil }
            return key
        }
    }

    /// Checks Relay arguments for any keyset list: `keyset` returns the position of a cursor
    /// this list issued, nil for any other (another list's, another kind's).
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` naming the argument.
    public static func validate(
        first: Int?, after: String?, last: Int?, before: String?, size rule: PageSize = .lists,
        keyset: (PageCursor) -> FollowKeyset?
    ) throws -> PageRequest {
        let backward = last != nil || before != nil
        if backward && (first != nil || after != nil) {
            throw DomainError.badUserInput(
                "Use either first/after or last/before, not both", field: first != nil ? "first" : "after")
        }
        let size = try rule.checked(backward ? last : first, field: backward ? "last" : "first")
        let cursorField = backward ? "before" : "after"
        var position: FollowKeyset?
        if let text = backward ? before : after {
            guard let cursor = PageCursor.decode(text), let key = keyset(cursor) else {
                throw DomainError.invalidCursor(field: cursorField)
            }
            position = key
        }
        return PageRequest(direction: backward ? .backward : .forward, limit: size, cursor: position)
    }
}
