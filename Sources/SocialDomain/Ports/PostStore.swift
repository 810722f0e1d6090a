import Foundation

/// Posts, likes and comments in a backend, batch-shaped like ``ProfileStore``: the gateway's
/// loaders call each read once per query level.
///
/// Visibility follows the author's profile: a private profile's posts, their likes and comments
/// reach only their author (the embedded store applies the rule itself; on Supabase and
/// PostgreSQL the migrations' RLS does). Errors are ``DomainError``s; anything else is treated as
/// `BACKEND_UNAVAILABLE`. Every ``Post`` returned carries the viewer's ``Post/viewerHasLiked``.
public protocol PostStore: Sendable {
    /// The visible posts among `ids`.
    func posts(ids: [UUID], viewer: Viewer) async throws -> [UUID: Post]
    /// One page per request, in request order, in one round trip: profiles' posts and feeds. A
    /// feed is the viewer's own posts plus those of the profiles the viewer follows (seed 003).
    func postPages(_ requests: [PostPageRequest], viewer: Viewer) async throws -> [PostPage]
    /// The visible comments among `ids`.
    func comments(ids: [UUID], viewer: Viewer) async throws -> [UUID: Comment]
    /// One page of comments per request, in request order, in one round trip.
    func commentPages(_ requests: [CommentPageRequest], viewer: Viewer) async throws -> [CommentPage]
    /// One page of likers per request, in request order, in one round trip (issue 54): newest
    /// like first, each liker only when the viewer sees it (and the post's author), whole;
    /// `totalCount` the post's stored like count (0 for a post the viewer does not see).
    func likerPages(_ requests: [LikerPageRequest], viewer: Viewer) async throws -> [LikerPage]
    /// Writes a post by the viewer; the author's post count moves in the same transaction.
    func createPost(_ draft: PostDraft, viewer: Viewer) async throws -> Post
    /// Changes the viewer's own post. - Throws: `NOT_FOUND` when it is not there (or not theirs).
    func updatePost(id: UUID, changes: PostChanges, viewer: Viewer) async throws -> Post
    /// Deletes the viewer's own post with its likes and comments. - Throws: `NOT_FOUND`.
    func deletePost(id: UUID, viewer: Viewer) async throws
    /// Likes or unlikes the post as `action` says, atomically: `.toggle` flips the viewer's like,
    /// `.like` and `.unlike` set it and change nothing when it already is so
    /// (``LikeOutcome/changed`` false). The count is exact under concurrency.
    /// - Throws: `NOT_FOUND` (missing or hidden post).
    func changeLike(postId: UUID, action: LikeAction, viewer: Viewer) async throws -> LikeOutcome
    /// Writes the viewer's comment on a visible post. - Throws: `NOT_FOUND` (missing or hidden post).
    func addComment(postId: UUID, content: String, viewer: Viewer) async throws -> Comment
    /// Deletes a comment the viewer wrote or one on the viewer's own post. - Throws: `NOT_FOUND`.
    func deleteComment(id: UUID, viewer: Viewer) async throws
}

extension PostStore {
    /// Likes the post if the viewer does not, else unlikes it (``changeLike(postId:action:viewer:)``
    /// with `.toggle`).
    public func toggleLike(postId: UUID, viewer: Viewer) async throws -> LikeOutcome {
        try await changeLike(postId: postId, action: .toggle, viewer: viewer)
    }
}
