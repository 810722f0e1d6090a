import Foundation
import GraphQLEngine
import SocialDomain

/// The post, like and comment mutations: a use case each, then the tags of what changed (so
/// the cache drops it before the mutation answers) and fresh reads for the payload.
enum PostMutationResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bind("Mutation", "createPost") { info in
            let request = try info.request
            let input = info.arguments["input"]?.objectValue ?? [:]
            let images = try uploadedImages(input["images"], request)
            let post = try await storeCall(request.logger) {
                try await CreatePost(posts: request.stores.posts, media: request.stores.media, onCleanupFailure: imageNotDeleted(request)).execute(
                    content: input["content"]?.stringValue ?? "", imageURLs: try imageURLs(input["imageURLs"]) ?? [],
                    images: images, viewer: request.viewer)
            }
            written(post, request)
            request.activities.record(Activity(
                kind: .posted, actor: post.authorId, subject: post.authorId, post: post.id,
                at: UnixMicroseconds.from(post.createdAt)))
            return PostPayloadValue(post: post)
        }
        b.bind("Mutation", "updatePost") { info in
            let request = try info.request
            let input = info.arguments["input"]?.objectValue ?? [:]
            let id = try parseID(input["id"]?.stringValue, field: "id")
            if input["content"] == .null { throw DomainError.badUserInput("content cannot be cleared", field: "content") }
            let post = try await storeCall(request.logger) {
                try await UpdatePost(posts: request.stores.posts, media: request.stores.media, onCleanupFailure: imageNotDeleted(request)).execute(
                    id: id, content: input["content"]?.stringValue, imageURLs: try imageURLs(input["imageURLs"]),
                    viewer: request.viewer)
            }
            request.changedTags.record(CacheTags.post(post.id))
            request.forgetPosts()
            request.postsByID.prime(post.id, post)
            return PostPayloadValue(post: post)
        }
        b.bind("Mutation", "deletePost") { info in
            let request = try info.request
            let id = try parseID(info.arguments.string("id"), field: "id")
            let post = try await storeCall(request.logger) {
                try await DeletePost(posts: request.stores.posts, media: request.stores.media, onCleanupFailure: imageNotDeleted(request))
                    .execute(id: id, viewer: request.viewer)
            }
            written(post, request)
            request.profilesByID.clear(post.authorId)
            return DeletePostPayloadValue(id: post.id, authorId: post.authorId)
        }
        b.bind("Mutation", "toggleLike") { info in try await changeLike(.toggle, info) }
        b.bind("Mutation", "like") { info in try await changeLike(.like, info) }
        b.bind("Mutation", "unlike") { info in try await changeLike(.unlike, info) }
        b.bind("Mutation", "addComment") { info in
            let request = try info.request
            let id = try parseID(info.arguments.string("postId"), field: "postId")
            let comment = try await storeCall(request.logger) {
                try await AddComment(posts: request.stores.posts).execute(
                    postId: id, content: info.arguments.string("content") ?? "", viewer: request.viewer)
            }
            request.changedTags.record([CacheTags.post(id), CacheTags.comments(id)])
            request.forgetPosts()
            if let post = try? await request.postsByID.load(id) {
                request.activities.record(Activity(
                    kind: .commented, actor: comment.authorId, subject: post.authorId, post: id, comment: comment.id,
                    at: UnixMicroseconds.from(comment.createdAt)))
            }
            return CommentPayloadValue(comment: comment)
        }
        b.bind("Mutation", "deleteComment") { info in
            let request = try info.request
            let id = try parseID(info.arguments.string("id"), field: "id")
            let comment = try await storeCall(request.logger) {
                try await DeleteComment(posts: request.stores.posts).execute(id: id, viewer: request.viewer)
            }
            request.changedTags.record([CacheTags.post(comment.postId), CacheTags.comments(comment.postId)])
            request.forgetPosts()
            return DeleteCommentPayloadValue(id: comment.id, postId: comment.postId)
        }
        b.bindSync("PostPayload", "post") { try $0.parent(as: PostPayloadValue.self).post }
        b.bindSync("DeletePostPayload", "deletedPostId") { try $0.parent(as: DeletePostPayloadValue.self).id.lowercased }
        b.bind("DeletePostPayload", "author") { info in
            try await PostResolvers.author(try info.parent(as: DeletePostPayloadValue.self).authorId, info)
        }
        b.bindSync("LikePayload", "liked") { try $0.parent(as: LikePayloadValue.self).liked }
        b.bindSync("LikePayload", "likeCount") { try $0.parent(as: LikePayloadValue.self).likeCount }
        b.bind("LikePayload", "post") { info in try await freshPost(try info.parent(as: LikePayloadValue.self).postId, info) }
        b.bindSync("CommentPayload", "comment") { try $0.parent(as: CommentPayloadValue.self).comment }
        b.bind("CommentPayload", "post") { info in
            try await freshPost(try info.parent(as: CommentPayloadValue.self).comment.postId, info)
        }
        b.bindSync("DeleteCommentPayload", "deletedCommentId") { try $0.parent(as: DeleteCommentPayloadValue.self).id.lowercased }
        b.bind("DeleteCommentPayload", "post") { info in
            try await freshPost(try info.parent(as: DeleteCommentPayloadValue.self).postId, info)
        }
    }

    /// `toggleLike`, `like` and `unlike`: the use case, the post's tag, and a `liked` activity
    /// only when a like was made (a repeated `like` makes none, so it notifies nobody twice).
    static func changeLike(_ action: LikeAction, _ info: ResolveInfo) async throws -> LikePayloadValue {
        let request = try info.request
        let id = try parseID(info.arguments.string("postId"), field: "postId")
        let outcome = try await storeCall(request.logger) { () async throws -> LikeOutcome in
            switch action {
            case .toggle: try await ToggleLike(posts: request.stores.posts).execute(postId: id, viewer: request.viewer)
            case .like: try await LikePost(posts: request.stores.posts).execute(postId: id, viewer: request.viewer)
            case .unlike: try await UnlikePost(posts: request.stores.posts).execute(postId: id, viewer: request.viewer)
            }
        }
        request.changedTags.record(CacheTags.post(id))
        request.forgetPosts()
        if outcome.changed, outcome.liked, let viewer = request.viewer.userId, let post = try? await request.postsByID.load(id) {
            request.activities.record(Activity(kind: .liked, actor: viewer, subject: post.authorId, post: id, at: outcome.at ?? ActivityLog.now))
        }
        return LikePayloadValue(liked: outcome.liked, likeCount: outcome.likeCount, postId: id)
    }

    /// A post was written or deleted: its author's list and post count, and every feed that draws
    /// from the author, change.
    static func written(_ post: Post, _ request: RequestContext) {
        request.changedTags.record([
            CacheTags.post(post.id), CacheTags.posts(post.authorId), CacheTags.profile(post.authorId), CacheTags.allFeeds,
        ])
        request.forgetPosts()
        request.profilesByID.clear(post.authorId)
    }

    /// The post as it is after the mutation (its counts moved).
    static func freshPost(_ id: UUID, _ info: ResolveInfo) async throws -> Post {
        let request = try info.request
        guard let post = try await request.postsByID.load(id) else { throw DomainError.postNotFound }
        return request.read(post) ?? post
    }

    /// Logs a post image that could not be deleted (after a failed post, or one it no longer lists).
    static func imageNotDeleted(_ request: RequestContext) -> @Sendable (MediaPath, any Error) -> Void {
        let logger = request.logger
        return { path, error in logger.warning("post image not deleted", metadata: ["path": "\(path)", "error": "\(error)"]) }
    }

    /// `images`: the bytes of each file the list names (files of this multipart request, each
    /// used by one field only: ``RequestBudget/useFile(_:)``); none when absent or null. More
    /// than ``PostRules/maxImages`` is refused before any file is read.
    static func uploadedImages(_ value: JSONValue?, _ request: RequestContext) throws -> [Data] {
        guard let items = value?.arrayValue else { return [] }
        guard items.count <= PostRules.maxImages else {
            throw DomainError.badUserInput("A post can have at most \(PostRules.maxImages) images", field: "images")
        }
        return try items.map { try MutationResolvers.uploadedBytes($0, field: "images", request) }
    }

    /// `imageURLs`: absent keeps (nil), null is refused, a list of strings is taken as given.
    static func imageURLs(_ value: JSONValue?) throws -> [String]? {
        guard let value else { return nil }
        guard let items = value.arrayValue else {
            throw DomainError.badUserInput("imageURLs cannot be null; pass [] for none", field: "imageURLs")
        }
        return items.compactMap(\.stringValue)
    }

    static func parseID(_ text: String?, field: String) throws -> UUID {
        guard let text, let id = UUID(parsing: text) else {
            throw DomainError.badUserInput("\(field) must be an id (a UUID)", field: field)
        }
        return id
    }
}

struct PostPayloadValue: Sendable { let post: Post }
struct DeletePostPayloadValue: Sendable {
    let id: UUID
    let authorId: UUID
}
struct LikePayloadValue: Sendable {
    let liked: Bool
    let likeCount: Int
    let postId: UUID
}
struct CommentPayloadValue: Sendable { let comment: Comment }
struct DeleteCommentPayloadValue: Sendable {
    let id: UUID
    let postId: UUID
}
