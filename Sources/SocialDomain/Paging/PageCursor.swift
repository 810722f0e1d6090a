import Foundation

/// Which list a follow page belongs to: the followers of `owner`, or whom `owner` follows.
public struct FollowList: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case followers, following
    }
    public var kind: Kind
    public var owner: UUID
    public init(_ kind: Kind, of owner: UUID) {
        self.kind = kind
        self.owner = owner
    }
}

/// The position of a follow in a newest-first list: (created_at, id), both exact.
public struct FollowKeyset: Sendable, Hashable, Comparable {
    public var createdAtMicroseconds: Int64
    public var followId: UUID
    public init(createdAtMicroseconds: Int64, followId: UUID) {
        self.createdAtMicroseconds = createdAtMicroseconds
        self.followId = followId
    }
    /// Ascending (oldest first); ties broken by the lower-case id, as SQL compares them.
    public static func < (a: FollowKeyset, b: FollowKeyset) -> Bool {
        (a.createdAtMicroseconds, a.followId.lowercased) < (b.createdAtMicroseconds, b.followId.lowercased)
    }
}

/// The same (created_at, id) position orders posts and comments; there ``FollowKeyset/followId``
/// is the post's or comment's id (``FollowKeyset/id``).
public typealias TimeKeyset = FollowKeyset

extension FollowKeyset {
    /// The row's id: a follow's, a post's or a comment's.
    public var id: UUID { followId }
    public init(createdAtMicroseconds: Int64, id: UUID) { self.init(createdAtMicroseconds: createdAtMicroseconds, followId: id) }
}

/// How well a profile's handle matches a search (seed 000): the exact handle first, then handles
/// starting with the query, then the rest (a match inside the handle or the display name).
/// Compared case-insensitively.
public enum SearchRank: Int, Sendable, Hashable, Comparable, CaseIterable {
    case exact = 0, prefix = 1, other = 2

    /// The rank of a lower-case handle for a lower-case query, byte for byte as the stores' SQL
    /// compares them (`handle_lower = q`, `starts_with(handle_lower, q)`).
    public init(handleKey: String, queryKey: String) {
        if handleKey == queryKey {
            self = .exact
        } else if handleKey.utf8.starts(with: queryKey.utf8) {
            self = .prefix
        } else {
            self = .other
        }
    }

    public static func < (a: SearchRank, b: SearchRank) -> Bool { a.rawValue < b.rawValue }
}

/// The position of a profile in search results ordered by rank, lower-cased handle, then id.
public struct SearchKeyset: Sendable, Hashable {
    public var rank: SearchRank
    /// The handle in lower case (handles are unique case-insensitively).
    public var handleKey: String
    public var profileId: UUID
    public init(rank: SearchRank, handleKey: String, profileId: UUID) {
        self.rank = rank
        self.handleKey = handleKey
        self.profileId = profileId
    }
}

/// An opaque, versioned keyset cursor shared by both stores.
///
/// Wire form: base64url (no padding) of an ASCII payload, fields separated by `:`:
/// - `v1:followers:<owner uuid>:<created_at µs>:<follow uuid>`
/// - `v1:following:<owner uuid>:<created_at µs>:<follow uuid>`
/// - `v1:search:<rank 0|1|2>:<lower-case handle>:<profile uuid>` (issue 40 added the rank; the
///   rank-less search cursors written before are refused as invalid, since their position was in
///   the old order)
/// - `v1:sync:<viewer uuid>:<updated_at µs>:<follow uuid>`
/// - `v1:posts:<author uuid>:<created_at µs>:<post uuid>` (a profile's posts)
/// - `v1:feed:<viewer uuid>:<created_at µs>:<post uuid>`
/// - `v1:comments:<post uuid>:<created_at µs>:<comment uuid>`
/// - `v1:followRequests:<owner uuid>:<requested at µs>:<requester uuid>`
/// - `v1:sentFollowRequests:<requester uuid>:<requested at µs>:<target uuid>` (issue 54)
/// - `v1:likers:<post uuid>:<liked at µs>:<liker uuid>` (issue 54)
/// - `v1:blocked:<owner uuid>:<blocked at µs>:<blocked profile uuid>`
///
/// The list kind and owner are inside, so a search cursor given to `followers`, or another
/// profile's cursor, is detected and rejected. Decoding is strict: only the canonical form of
/// each field is accepted.
///
/// ```swift
/// let cursor = PageCursor.follow(FollowList(.followers, of: id), keyset).encoded
/// ```
public enum PageCursor: Sendable, Hashable {
    case follow(FollowList, FollowKeyset)
    case search(SearchKeyset)
    /// A position in the sync of `owner`'s own follows.
    case sync(owner: UUID, SyncKeyset)
    /// A position in one of the time-ordered lists of posts and comments.
    case timeline(Timeline, TimeKeyset)

    /// Which time-ordered list a ``timeline(_:_:)`` cursor belongs to.
    public enum Timeline: Sendable, Hashable {
        case posts(author: UUID)
        case feed(viewer: UUID)
        case comments(post: UUID)
        /// The follow requests a private profile has received (keyset: time asked, requester).
        case followRequests(owner: UUID)
        /// The pending requests a viewer has made (keyset: time asked, profile asked).
        case sentFollowRequests(requester: UUID)
        /// A post's likers, newest like first (keyset: time liked, liker).
        case likers(post: UUID)
        /// The profiles a viewer blocks (keyset: time blocked, blocked profile).
        case blocked(owner: UUID)

        var kind: String {
            switch self {
            case .posts: "posts"
            case .feed: "feed"
            case .comments: "comments"
            case .followRequests: "followRequests"
            case .sentFollowRequests: "sentFollowRequests"
            case .likers: "likers"
            case .blocked: "blocked"
            }
        }
        var owner: UUID {
            switch self {
            case .posts(let id), .feed(let id), .comments(let id), .followRequests(let id), .sentFollowRequests(let id),
                 .likers(let id), .blocked(let id): id
            }
        }
    }

    static let version = "v1"

    public var encoded: String {
        // Bytes appended in place, ids and numbers included: a follower graph writes 550
        // cursors, and `joined`, then each UUID's and number's own String, showed in profiles.
        var payload: [UInt8] = []
        payload.reserveCapacity(112)
        func add(_ field: String, last: Bool = false) {
            payload.append(contentsOf: field.utf8)
            if !last { payload.append(UInt8(ascii: ":")) }
        }
        func add(_ id: UUID, last: Bool = false) {
            id.appendLowercased(to: &payload)
            if !last { payload.append(UInt8(ascii: ":")) }
        }
        func add(_ number: Int64) {
            if number < 0 { payload.append(UInt8(ascii: "-")) }
            // Digits appended lowest first, then put in order where they stand.
            let start = payload.count
            var magnitude = number.magnitude
            repeat {
                payload.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            payload[start...].reverse()
            payload.append(UInt8(ascii: ":"))
        }
        switch self {
        case .follow(let list, let key):
            add(Self.version)
            add(list.kind.rawValue)
            add(list.owner)
            add(key.createdAtMicroseconds)
            add(key.followId, last: true)
        case .search(let key):
            add(Self.version)
            add("search")
            add(Int64(key.rank.rawValue))
            add(key.handleKey)
            add(key.profileId, last: true)
        case .sync(let owner, let key):
            add(Self.version)
            add("sync")
            add(owner)
            add(key.updatedAtMicroseconds)
            add(key.followId, last: true)
        case .timeline(let list, let key):
            add(Self.version)
            add(list.kind)
            add(list.owner)
            add(key.createdAtMicroseconds)
            add(key.id, last: true)
        }
        return Base64URL.encode(payload)
    }

    /// Nil for anything that is not a cursor this version wrote.
    public static func decode(_ text: String) -> PageCursor? {
        guard text.utf8.count <= 200, let bytes = Base64URL.decode(text), Base64URL.encode(bytes) == text,
              let payload = String(bytes: bytes, encoding: .utf8), payload.allSatisfy(\.isASCII)
        else { return nil }
        let parts = payload.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == version, parts.count >= 2 else { return nil }
        switch parts[1] {
        case "followers", "following":
            guard parts.count == 5, let kind = FollowList.Kind(rawValue: parts[1]),
                  let owner = canonicalUUID(parts[2]), let micros = canonicalInt64(parts[3]),
                  let followId = canonicalUUID(parts[4]) else { return nil }
            return .follow(FollowList(kind, of: owner),
                           FollowKeyset(createdAtMicroseconds: micros, followId: followId))
        case "search":
            guard parts.count == 5, let number = canonicalInt64(parts[2]), let rank = SearchRank(rawValue: Int(number)),
                  HandleRule.isValid(parts[3]), parts[3] == parts[3].lowercased(),
                  let id = canonicalUUID(parts[4]) else { return nil }
            return .search(SearchKeyset(rank: rank, handleKey: parts[3], profileId: id))
        case "sync":
            guard parts.count == 5, let owner = canonicalUUID(parts[2]), let micros = canonicalInt64(parts[3]),
                  let followId = canonicalUUID(parts[4]) else { return nil }
            return .sync(owner: owner, SyncKeyset(updatedAtMicroseconds: micros, followId: followId))
        case "posts", "feed", "comments", "followRequests", "sentFollowRequests", "likers", "blocked":
            guard parts.count == 5, let owner = canonicalUUID(parts[2]), let micros = canonicalInt64(parts[3]),
                  let id = canonicalUUID(parts[4]) else { return nil }
            let list: Timeline = switch parts[1] {
            case "posts": .posts(author: owner)
            case "feed": .feed(viewer: owner)
            case "followRequests": .followRequests(owner: owner)
            case "sentFollowRequests": .sentFollowRequests(requester: owner)
            case "likers": .likers(post: owner)
            case "blocked": .blocked(owner: owner)
            default: .comments(post: owner)
            }
            return .timeline(list, TimeKeyset(createdAtMicroseconds: micros, id: id))
        default:
            return nil
        }
    }

    private static func canonicalUUID(_ text: String) -> UUID? {
        guard let id = UUID(parsing: text), id.lowercased == text else { return nil }
        return id
    }

    private static func canonicalInt64(_ text: String) -> Int64? {
        guard let n = Int64(text), String(n) == text else { return nil }
        return n
    }
}
