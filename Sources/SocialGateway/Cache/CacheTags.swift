import Foundation
import SocialDomain
import Synchronization

/// The tags of the data a response was built from, and of the data a mutation
/// changed. Reads record what they used; a mutation's tags invalidate every cached
/// response that used any of them.
///
/// - `Profile:<id>`: a profile's own fields, its counts, the viewer's relation to it.
/// - `followers:<id>`, `following:<id>`: a profile's follow lists.
/// - `follow-lists`: every follow list (a profile's visibility changes what lists show).
/// - `search`: every search result.
/// - `Post:<id>`: a post's own fields, its counts, the viewer's like.
/// - `posts:<author>`: a profile's list of posts; a feed records one per profile it draws from.
/// - `all-feeds`: a feed whose sources are not known (any new post invalidates it).
/// - `comments:<post>`: a post's comments.
final class CacheTags: Sendable {
    private let tags = Mutex(Set<String>())
    /// False for the tags of an answer no cache will keep (``GatewayService``'s first asking of a
    /// viewer's own answer, mutations' reads): nothing is recorded, and hot paths skip building
    /// the tags' strings (a follower graph names 550 profiles).
    let isRecording: Bool

    init(recording: Bool = true) { isRecording = recording }

    func record(_ tag: String) {
        guard isRecording else { return }
        tags.withLock { _ = $0.insert(tag) }
    }
    func record(_ more: some Sequence<String>) {
        guard isRecording else { return }
        tags.withLock { $0.formUnion(more) }
    }
    var all: Set<String> { tags.withLock { $0 } }

    static func profile(_ id: UUID) -> String { "Profile:\(id.lowercased)" }
    static func followers(_ id: UUID) -> String { "followers:\(id.lowercased)" }
    static func following(_ id: UUID) -> String { "following:\(id.lowercased)" }
    /// A private profile's pending follow requests (issue 40).
    static func followRequests(_ id: UUID) -> String { "followRequests:\(id.lowercased)" }
    /// The pending follow requests a viewer has made (issue 54).
    static func sentFollowRequests(_ id: UUID) -> String { "sentFollowRequests:\(id.lowercased)" }
    /// The profiles a viewer blocks (issue 40).
    static func blocked(_ id: UUID) -> String { "blocked:\(id.lowercased)" }
    static let followLists = "follow-lists"
    static func post(_ id: UUID) -> String { "Post:\(id.lowercased)" }
    static func posts(_ author: UUID) -> String { "posts:\(author.lowercased)" }
    static let allFeeds = "all-feeds"
    static func comments(_ post: UUID) -> String { "comments:\(post.lowercased)" }
    static let search = "search"
}
