import Foundation
import SocialDomain

/// One request of `liker_pages` (migration 20250301004100): `{"post", "limit", "after_us", "after_id"}`.
public struct LikerPageArgument: Codable, Sendable {
    public var post: String
    public var limit: Int
    public var after_us: Int64?
    public var after_id: String?
    public init(_ request: LikerPageRequest) {
        post = request.post.lowercased
        limit = request.limit
        after_us = request.after?.createdAtMicroseconds
        after_id = request.after?.id.lowercased
    }
}

/// The body of `POST /rest/v1/rpc/liker_pages`: `{"requests": [...]}`.
public struct LikerPagesArguments: Codable, Sendable {
    public var requests: [LikerPageArgument]
    public init(_ requests: [LikerPageRequest]) { self.requests = requests.map(LikerPageArgument.init) }
}

/// One page of the answer of `liker_pages`: `{"total": n, "likers": [{"liked_us", "profile"}]}`,
/// in request order.
public struct LikerPageRow: Codable, Sendable {
    public struct Liker: Codable, Sendable {
        public var liked_us: Int64
        public var profile: ProfileRow
        public init(liked_us: Int64, profile: ProfileRow) {
            self.liked_us = liked_us
            self.profile = profile
        }
    }
    public var total: Int
    public var likers: [Liker]
    public init(total: Int, likers: [Liker]) {
        self.total = total
        self.likers = likers
    }

    /// The domain's pages, one per request in order.
    /// - Throws: ``MalformedRow`` when the answer has another number of pages.
    public static func pages(_ rows: [LikerPageRow], answering requests: [LikerPageRequest]) throws -> [LikerPage] {
        guard rows.count == requests.count else { throw MalformedRow("liker_pages answered \(rows.count) pages for \(requests.count)") }
        return try zip(rows, requests).map { row, request in
            let likers = try row.likers.map {
                LikerEdge(profile: try $0.profile.profile(), postId: request.post, likedAtMicroseconds: $0.liked_us)
            }
            return LikerPage.assemble(request: request, fetched: likers, totalCount: row.total)
        }
    }
}
