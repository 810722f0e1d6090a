import Foundation
import SocialDomain

/// The parent value of `ProfileConnection`: a page of followers/following, of search results,
/// or the first profiles of a ranked list without cursors (followed-by, suggestions).
enum ConnectionValue: Sendable {
    case follows(FollowPage)
    case search(SearchPage)
    case ranked(ProfileListPage)

    var edges: [EdgeValue] {
        switch self {
        case .follows(let page): page.edges.map { EdgeValue(cursor: $0.cursor, profile: $0.profile, followedAt: $0.follow.createdAt) }
        case .search(let page): page.edges.map { EdgeValue(cursor: $0.cursor, profile: $0.profile, followedAt: nil) }
        // No cursor paging: a profile's cursor is its id.
        case .ranked(let page): page.profiles.map { EdgeValue(cursor: $0.id.lowercased, profile: $0, followedAt: nil) }
        }
    }

    var nodes: [Profile] {
        switch self {
        case .follows(let page): page.edges.map(\.profile)
        case .search(let page): page.edges.map(\.profile)
        case .ranked(let page): page.profiles
        }
    }

    /// The stored counter for follow lists; for a search, the profiles of this page
    /// (a search keeps no counter, and the gateway never counts rows); for a ranked list, the
    /// count its store statement made of the whole list.
    var totalCount: Int {
        switch self {
        case .follows(let page): page.totalCount
        case .search(let page): page.edges.count
        case .ranked(let page): page.totalCount
        }
    }

    var pageInfo: PageInfoValue {
        switch self {
        case .follows(let p):
            PageInfoValue(hasNextPage: p.hasNextPage, hasPreviousPage: p.hasPreviousPage, startCursor: p.startCursor, endCursor: p.endCursor)
        case .search(let p):
            PageInfoValue(hasNextPage: p.hasNextPage, hasPreviousPage: p.hasPreviousPage, startCursor: p.startCursor, endCursor: p.endCursor)
        case .ranked(let p):
            PageInfoValue(
                hasNextPage: p.hasNextPage, hasPreviousPage: false, startCursor: p.profiles.first?.id.lowercased,
                endCursor: p.profiles.last?.id.lowercased)
        }
    }
}

/// The parent value of `ProfileEdge`.
struct EdgeValue: Sendable {
    let cursor: String
    let profile: Profile
    let followedAt: Date?
}

/// The parent value of `PageInfo`.
struct PageInfoValue: Sendable {
    let hasNextPage: Bool
    let hasPreviousPage: Bool
    let startCursor: String?
    let endCursor: String?
}

/// The parent value of `FollowPayload`.
struct FollowPayloadValue: Sendable {
    let following: Bool
    /// Nil when the profile is hidden from the viewer (a follow removed after it turned private).
    let profile: Profile?
    let viewer: Profile
    /// Where the viewer's request to follow a private profile stands after the call.
    var requestStatus: FollowRequestStatus = .none
}

/// The parent value of `FollowRecordConnection`: a page of the viewer's follow sync.
struct FollowRecordsValue: Sendable {
    let owner: UUID
    let page: FollowSyncPage
    /// Whether the client asked from a cursor (so records come before this page).
    let isContinued: Bool

    var edges: [FollowRecordEdgeValue] {
        page.records.map { FollowRecordEdgeValue(cursor: PageCursor.sync(owner: owner, $0.keyset).encoded, record: $0) }
    }

    var pageInfo: PageInfoValue {
        let cursors = edges.map(\.cursor)
        return PageInfoValue(
            hasNextPage: page.hasNextPage, hasPreviousPage: isContinued, startCursor: cursors.first, endCursor: cursors.last)
    }
}

/// The parent value of `FollowRecordEdge`.
struct FollowRecordEdgeValue: Sendable {
    let cursor: String
    let record: FollowRecord
}
