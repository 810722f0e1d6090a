import Foundation

/// Writes a post by the viewer (seed 004 `Post`): content trimmed and required, image URLs
/// checked (``PostRules``).
///
/// ```swift
/// let post = try await CreatePost(posts: store).execute(content: " Hi ", imageURLs: [], viewer: viewer)
/// ```
public struct CreatePost: Sendable {
    /// The largest image uploaded with a post: an avatar's 5 MB (and its other rules).
    public static let maxImageBytes = UploadAvatar.maxBytes

    public let posts: any PostStore
    /// Where uploaded images go (their ``MediaKind/postImage`` bucket); nil where a post takes
    /// links only.
    public let media: (any MediaStore)?
    public let clock: any WallClock
    public let random: any RandomSource
    /// Told when an uploaded image could not be deleted after the post failed (the caller logs it).
    public let onCleanupFailure: @Sendable (MediaPath, any Error) -> Void

    public init(
        posts: any PostStore, media: (any MediaStore)? = nil, clock: any WallClock = SystemClock(),
        random: any RandomSource = SystemRandom(), onCleanupFailure: @escaping @Sendable (MediaPath, any Error) -> Void = { _, _ in }
    ) {
        self.posts = posts
        self.media = media
        self.clock = clock
        self.random = random
        self.onCleanupFailure = onCleanupFailure
    }

    /// Creates the viewer's post with `imageURLs` (links) followed by `images`, files uploaded
    /// with the request (issue 54): at most ``PostRules/maxImages`` together; each image as an
    /// avatar is checked (at most 5 MB, really JPEG or PNG by its bytes, at most
    /// ``ImageDimensions/maxDimension`` pixels each way) before any is stored, then stored at
    /// `{userId}/{unixTime}_{8 hex}.{jpg|png}` in the post-images bucket. If the post cannot be
    /// made, the images stored for it are deleted again.
    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (content, imageURLs, images),
    ///   `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE` (on `images`), `BACKEND_UNAVAILABLE`.
    public func execute(content: String, imageURLs: [String], images: [Data] = [], viewer: Viewer) async throws -> Post {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .createPosts) }
        let text = try PostRules.content(content)
        let links = try PostRules.imageURLs(imageURLs)
        guard links.count + images.count <= PostRules.maxImages else {
            throw DomainError.badUserInput("A post can have at most \(PostRules.maxImages) images", field: "images")
        }
        let formats = try images.map(Self.checkedImage)
        guard !images.isEmpty else {
            return try await backend { try await posts.createPost(PostDraft(content: text, imageURLs: links), viewer: viewer) }
        }
        guard let media else { throw DomainError.badUserInput("This server takes image links only", field: "images") }
        var stored: [MediaPath] = []
        do {
            var urls = links
            let now = Int64(clock.now().timeIntervalSince1970.rounded(.down))
            for (bytes, format) in zip(images, formats) {
                let path = MediaPath(kind: .postImage, owner: me, unixTime: now, suffix: random.hex(8), format: format)
                urls.append(try await backend { try await media.putMedia(bytes, at: path, viewer: viewer) })
                stored.append(path)
            }
            let draft = PostDraft(content: text, imageURLs: urls)
            return try await backend { try await posts.createPost(draft, viewer: viewer) }
        } catch {
            for path in stored {
                do { try await media.deleteMedia(at: path, viewer: viewer) } catch let failure { onCleanupFailure(path, failure) }
            }
            throw error
        }
    }

    /// An uploaded image's format, by an avatar's rules, its errors on the `images` field.
    static func checkedImage(_ bytes: Data) throws -> MediaFormat {
        func onImages(_ error: DomainError) -> DomainError {
            DomainError(error.code, error.message, field: "images", retryAfterSeconds: error.retryAfterSeconds)
        }
        guard bytes.count <= maxImageBytes else { throw onImages(DomainError.fileTooLarge(maxBytes: maxImageBytes)) }
        guard let format = ImageFormat.sniff(bytes) else { throw onImages(DomainError.invalidImage) }
        do {
            try ImageDimensions.checked(bytes, format: format)
        } catch let error as DomainError {
            throw onImages(error)
        }
        return MediaFormat(format)
    }
}

/// Changes the viewer's own post: nil keeps a field; the rules of ``CreatePost``. Images the
/// viewer uploaded with it (``MediaKind/postImage``) that the new `imageURLs` no longer list are
/// deleted (best effort).
public struct UpdatePost: Sendable {
    public let posts: any PostStore
    public let media: (any MediaStore)?
    public let onCleanupFailure: @Sendable (MediaPath, any Error) -> Void
    public init(
        posts: any PostStore, media: (any MediaStore)? = nil,
        onCleanupFailure: @escaping @Sendable (MediaPath, any Error) -> Void = { _, _ in }
    ) {
        self.posts = posts
        self.media = media
        self.onCleanupFailure = onCleanupFailure
    }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT`, `NOT_FOUND` (missing or hidden),
    ///   `FORBIDDEN` (someone else's), `BACKEND_UNAVAILABLE`.
    public func execute(id: UUID, content: String?, imageURLs: [String]?, viewer: Viewer) async throws -> Post {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .editPosts) }
        let changes = PostChanges(content: try content.map(PostRules.content), imageURLs: try imageURLs.map(PostRules.imageURLs))
        let post = try await PostOwnership.ownPost(id, of: me, in: posts, viewer: viewer)
        if changes.isEmpty { return post }
        let updated = try await backend { try await posts.updatePost(id: id, changes: changes, viewer: viewer) }
        if let media {
            let dropped = post.imageURLs.filter { !updated.imageURLs.contains($0) }
            await PostImages.delete(dropped, of: me, from: media, viewer: viewer, onFailure: onCleanupFailure)
        }
        return updated
    }
}

/// Deletes the viewer's own post, with its likes and comments, and the images uploaded with it
/// (best effort).
public struct DeletePost: Sendable {
    public let posts: any PostStore
    public let media: (any MediaStore)?
    public let onCleanupFailure: @Sendable (MediaPath, any Error) -> Void
    public init(
        posts: any PostStore, media: (any MediaStore)? = nil,
        onCleanupFailure: @escaping @Sendable (MediaPath, any Error) -> Void = { _, _ in }
    ) {
        self.posts = posts
        self.media = media
        self.onCleanupFailure = onCleanupFailure
    }

    /// The post as it was.
    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `FORBIDDEN`, `BACKEND_UNAVAILABLE`.
    public func execute(id: UUID, viewer: Viewer) async throws -> Post {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .deletePosts) }
        let post = try await PostOwnership.ownPost(id, of: me, in: posts, viewer: viewer)
        try await backend { try await posts.deletePost(id: id, viewer: viewer) }
        if let media { await PostImages.delete(post.imageURLs, of: me, from: media, viewer: viewer, onFailure: onCleanupFailure) }
        return post
    }
}

/// The images a post's author uploaded with it, among its `imageURLs` (links elsewhere are
/// never touched).
enum PostImages {
    /// Deletes each of `urls` that is a post image of `owner`; a failure is told, not thrown.
    static func delete(
        _ urls: [String], of owner: UUID, from media: any MediaStore, viewer: Viewer,
        onFailure: @Sendable (MediaPath, any Error) -> Void
    ) async {
        for url in urls {
            guard let path = MediaPath(publicURL: url, kind: .postImage), path.owner == owner else { continue }
            do { try await media.deleteMedia(at: path, viewer: viewer) } catch { onFailure(path, error) }
        }
    }
}

/// The ownership check shared by the post writes: NOT_FOUND for what the viewer cannot see,
/// FORBIDDEN for what they see but did not write.
enum PostOwnership {
    static func ownPost(_ id: UUID, of me: UUID, in posts: any PostStore, viewer: Viewer) async throws -> Post {
        guard let post = try await backend({ try await posts.posts(ids: [id], viewer: viewer) })[id] else {
            throw DomainError.postNotFound
        }
        guard post.authorId == me else { throw DomainError.notPostAuthor }
        return post
    }
}

/// Likes a post if the viewer does not, else unlikes it (like ``ToggleFollow``): atomic, and
/// the count returned is exact.
public struct ToggleLike: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(postId: UUID, viewer: Viewer) async throws -> LikeOutcome {
        try await LikeChange.apply(.toggle, to: postId, viewer: viewer, store: posts)
    }
}

/// Makes the viewer like a post; liking it again succeeds and changes nothing (no second like,
/// count unchanged, ``LikeOutcome/changed`` false), so a client may retry it freely.
///
/// ```swift
/// let outcome = try await LikePost(posts: store).execute(postId: id, viewer: alice)
/// outcome.liked   // true, however often it is called
/// ```
public struct LikePost: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(postId: UUID, viewer: Viewer) async throws -> LikeOutcome {
        try await LikeChange.apply(.like, to: postId, viewer: viewer, store: posts)
    }
}

/// Takes the viewer's like back; unliking a post not liked succeeds and changes nothing.
public struct UnlikePost: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(postId: UUID, viewer: Viewer) async throws -> LikeOutcome {
        try await LikeChange.apply(.unlike, to: postId, viewer: viewer, store: posts)
    }
}

/// The rules shared by the three like mutations: signed in, then the store's atomic change.
enum LikeChange {
    static func apply(_ action: LikeAction, to postId: UUID, viewer: Viewer, store: any PostStore) async throws -> LikeOutcome {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .likePosts) }
        return try await backend { try await store.changeLike(postId: postId, action: action, viewer: viewer) }
    }
}

/// Writes the viewer's comment on a post they can see.
public struct AddComment: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `BAD_USER_INPUT` (content), `NOT_FOUND`, `BACKEND_UNAVAILABLE`.
    public func execute(postId: UUID, content: String, viewer: Viewer) async throws -> Comment {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .comment) }
        let text = try PostRules.comment(content)
        return try await backend { try await posts.addComment(postId: postId, content: text, viewer: viewer) }
    }
}

/// Deletes a comment the viewer wrote, or any comment on the viewer's own post.
public struct DeleteComment: Sendable {
    public let posts: any PostStore
    public init(posts: any PostStore) { self.posts = posts }

    /// The comment as it was.
    /// - Throws: ``DomainError`` `UNAUTHENTICATED`, `NOT_FOUND`, `FORBIDDEN`, `BACKEND_UNAVAILABLE`.
    public func execute(id: UUID, viewer: Viewer) async throws -> Comment {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .deleteComments) }
        guard let comment = try await backend({ try await posts.comments(ids: [id], viewer: viewer) })[id] else {
            throw DomainError.commentNotFound
        }
        if comment.authorId != me {
            let post = try await backend { try await posts.posts(ids: [comment.postId], viewer: viewer) }[comment.postId]
            guard post?.authorId == me else { throw DomainError.notCommentDeleter }
        }
        try await backend { try await posts.deleteComment(id: id, viewer: viewer) }
        return comment
    }
}
