import Foundation
import SocialDomain

/// The parent value of `ProfileConnection`: a page of followers/following or of search results.
enum ConnectionValue: Sendable {
    case follows(FollowPage)
    case search(SearchPage)

    var edges: [EdgeValue] {
        switch self {
        case .follows(let page): page.edges.map { EdgeValue(cursor: $0.cursor, profile: $0.profile, followedAt: $0.follow.createdAt) }
        case .search(let page): page.edges.map { EdgeValue(cursor: $0.cursor, profile: $0.profile, followedAt: nil) }
        }
    }

    var nodes: [Profile] {
        switch self {
        case .follows(let page): page.edges.map(\.profile)
        case .search(let page): page.edges.map(\.profile)
        }
    }

    /// The stored counter for follow lists; for a search, the profiles of this page
    /// (a search keeps no counter, and the gateway never counts rows).
    var totalCount: Int {
        switch self {
        case .follows(let page): page.totalCount
        case .search(let page): page.edges.count
        }
    }

    var pageInfo: PageInfoValue {
        switch self {
        case .follows(let p):
            PageInfoValue(hasNextPage: p.hasNextPage, hasPreviousPage: p.hasPreviousPage, startCursor: p.startCursor, endCursor: p.endCursor)
        case .search(let p):
            PageInfoValue(hasNextPage: p.hasNextPage, hasPreviousPage: p.hasPreviousPage, startCursor: p.startCursor, endCursor: p.endCursor)
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
