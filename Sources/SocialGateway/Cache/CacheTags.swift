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
final class CacheTags: Sendable {
    private let tags = Mutex(Set<String>())

    func record(_ tag: String) { tags.withLock { _ = $0.insert(tag) } }
    func record(_ more: some Sequence<String>) { tags.withLock { $0.formUnion(more) } }
    var all: Set<String> { tags.withLock { $0 } }

    static func profile(_ id: UUID) -> String { "Profile:\(id.lowercased)" }
    static func followers(_ id: UUID) -> String { "followers:\(id.lowercased)" }
    static func following(_ id: UUID) -> String { "following:\(id.lowercased)" }
    static let followLists = "follow-lists"
    static let search = "search"
}
