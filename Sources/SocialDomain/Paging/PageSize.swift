/// The page sizes one kind of connection accepts (`first`, and `last` where it pages back) and
/// the size it gets when the client names none.
///
/// Each connection's rule is defined here once and read by its use case, the README's limits
/// table (a test compares them) and the schema's descriptions. The SQL functions clamp wider
/// (`page_size` up to 101, the gateway asking one more than it returns), so they never refuse a
/// size the domain allows.
///
/// ```swift
/// let size = try PageSize.lists.checked(first, field: "first")   // 0...50, nil gives 20
/// ```
public struct PageSize: Sendable, Hashable {
    /// The sizes a client may ask for.
    public let range: ClosedRange<Int>
    /// The size of a page when the client asks for none.
    public let defaultSize: Int
    /// The connections (GraphQL fields) that follow this rule, as the README's limits table names them.
    public let connections: [String]

    public init(_ range: ClosedRange<Int>, default defaultSize: Int, connections: [String]) {
        precondition(range.contains(defaultSize), "a default page size must be one a client may ask for")
        self.range = range
        self.defaultSize = defaultSize
        self.connections = connections
    }

    /// Keyset lists read newest (or oldest) first: a profile's followers, following and posts,
    /// a post's comments, the feed. `first: 0` asks for the page info alone.
    public static let lists = PageSize(0...50, default: 20, connections: ["followers", "following", "posts", "comments", "feed", "likers"])
    /// Profile search (seed 001: limits 1...50).
    public static let search = PageSize(1...50, default: 20, connections: ["searchProfiles"])
    /// An offline-first client's sync of its follows: bigger pages, fewer round trips.
    public static let followChanges = PageSize(1...100, default: 50, connections: ["followsChangedSince"])

    /// "Followed by X, Y and 12 others" on a profile card: a few names, the rest counted.
    public static let followedBy = PageSize(0...50, default: 3, connections: ["followedByViewerFollowing"])
    /// The viewer's suggested profiles (friends of friends): the first N, no cursor.
    public static let suggestions = PageSize(1...50, default: 20, connections: ["suggestedProfiles"])
    /// The viewer's own lists of other profiles, newest first: follow requests waiting for an
    /// answer, blocked profiles.
    public static let ownLists = PageSize(1...50, default: 20, connections: ["followRequests", "sentFollowRequests", "blockedProfiles"])

    /// The viewer's notifications, newest first (issue 54).
    public static let notifications = PageSize(1...50, default: 20, connections: ["notifications"])

    /// Every rule, for the README and schema checks.
    public static let all: [PageSize] = [.lists, .search, .followChanges, .followedBy, .suggestions, .ownLists, .notifications]

    /// The size asked for, or the default.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` on `field` ("first must be between 0 and 50").
    public func checked(_ requested: Int?, field: String) throws -> Int {
        let size = requested ?? defaultSize
        guard range.contains(size) else {
            throw DomainError.badUserInput("\(field) must be between \(range.lowerBound) and \(range.upperBound)", field: field)
        }
        return size
    }

    /// How documentation states the rule: "0 to 50, default 20".
    public var summary: String { "\(range.lowerBound) to \(range.upperBound), default \(defaultSize)" }
}
