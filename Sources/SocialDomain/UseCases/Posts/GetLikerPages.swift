import Foundation

/// Who liked a post (issue 54), batch-shaped: every `Post.likers` of a query level in one store
/// call. A post's likers show by the edge rule (``SocialRules/showsEdge(_:_:)``): a like by C on
/// A's post is listed iff the viewer sees A (the post is visible) and sees C.
///
/// ```swift
/// let request = try GetLikerPages.request(post: id, first: 10, after: nil)
/// let pages = try await GetLikerPages(posts: store).execute([request], viewer: viewer)
/// ```
public struct GetLikerPages: Sendable {
    public let posts: any PostStore

    public init(posts: any PostStore) { self.posts = posts }

    /// One post's likers: `first` checked (``PageSize/lists``: 0 to 50, default 20) and `after`
    /// a cursor of this post's likers.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` naming the argument.
    public static func request(post: UUID, first: Int?, after: String?) throws -> LikerPageRequest {
        let limit = try PageSize.lists.checked(first, field: "first")
        var keyset: TimeKeyset?
        if let after {
            guard case .timeline(.likers(let owner), let key) = PageCursor.decode(after), owner == post else {
                throw DomainError.invalidCursor(field: "after")
            }
            keyset = key
        }
        return LikerPageRequest(post: post, limit: limit, after: keyset)
    }

    /// - Throws: ``DomainError`` `BACKEND_UNAVAILABLE`.
    public func execute(_ requests: [LikerPageRequest], viewer: Viewer) async throws -> [LikerPage] {
        guard !requests.isEmpty else { return [] }
        let pages = try await backend { try await posts.likerPages(requests, viewer: viewer) }
        guard pages.count == requests.count else { throw DomainError.backendUnavailable }
        return pages
    }
}
