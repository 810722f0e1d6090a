import Foundation

/// One kind of data a write changed, as the change stream reports it: the typed form of the
/// cache's tags (``CacheTags``), which the database's triggers and the service's mutations name.
///
/// The response cache reads them back as tags; a subscription reads them as what they are
/// (a profile, a post's comments, a profile's posts).
public enum DataChange: Sendable, Hashable {
    /// A profile's own fields, its counts, a viewer's relation to it (`Profile:<id>`).
    case profile(UUID)
    /// A profile's followers list (`followers:<id>`).
    case followers(UUID)
    /// A profile's following list (`following:<id>`).
    case following(UUID)
    /// Every follow list: a profile's visibility changed what lists show (`follow-lists`).
    case followLists
    /// A post's own fields, its counts, a viewer's like (`Post:<id>`).
    case post(UUID)
    /// A profile's list of posts (`posts:<author>`).
    case posts(author: UUID)
    /// Every feed whose sources are not known (`all-feeds`).
    case allFeeds
    /// A post's comments (`comments:<post>`).
    case comments(post: UUID)
    /// Every search result (`search`).
    case search
    /// A tag this version does not know (a newer replica's, a newer migration's): kept as it came,
    /// so the cache still invalidates by it.
    case other(String)

    /// The change a cache tag names.
    public init(tag: String) {
        switch tag {
        case CacheTags.followLists: self = .followLists
        case CacheTags.allFeeds: self = .allFeeds
        case CacheTags.search: self = .search
        default:
            guard let colon = tag.firstIndex(of: ":"), let id = UUID(uuidString: String(tag[tag.index(after: colon)...])) else {
                self = .other(tag)
                return
            }
            switch tag[..<colon] {
            case "Profile": self = .profile(id)
            case "followers": self = .followers(id)
            case "following": self = .following(id)
            case "Post": self = .post(id)
            case "posts": self = .posts(author: id)
            case "comments": self = .comments(post: id)
            default: self = .other(tag)
            }
        }
    }

    /// The cache tag of this change (``CacheTags``).
    public var tag: String {
        switch self {
        case .profile(let id): CacheTags.profile(id)
        case .followers(let id): CacheTags.followers(id)
        case .following(let id): CacheTags.following(id)
        case .followLists: CacheTags.followLists
        case .post(let id): CacheTags.post(id)
        case .posts(let author): CacheTags.posts(author)
        case .allFeeds: CacheTags.allFeeds
        case .comments(let post): CacheTags.comments(post)
        case .search: CacheTags.search
        case .other(let tag): tag
        }
    }
}
