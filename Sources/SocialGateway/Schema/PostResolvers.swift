import Foundation
import GraphQLEngine
import SocialDomain

/// `Post`, `Comment`, their connections, `Profile.posts` and the feed: plain reads of loaded
/// values, lists through the page loaders (one store call per query level).
enum PostResolvers {
    static func bind(_ b: inout SchemaBinder) {
        func post(_ field: String, _ get: @escaping @Sendable (Post) -> (any Sendable)?) {
            b.bindSync("Post", field) { info in get(try info.parent(as: Post.self)) }
        }
        post("id") { $0.id.lowercased }
        post("content") { $0.content }
        post("imageURLs") { $0.imageURLs }
        post("likeCount") { $0.likeCount }
        post("commentCount") { $0.commentCount }
        post("viewerHasLiked") { $0.viewerHasLiked }
        post("createdAt") { $0.createdAt }
        post("updatedAt") { $0.updatedAt }
        b.bind("Post", "author") { info in try await author(try info.parent(as: Post.self).authorId, info) }
        b.bind("Post", "comments") { info in try await comments(info) }
        b.bind("Post", "likers") { info in try await likers(info) }
        b.bindSync("LikerConnection", "edges") { try $0.parent(as: LikerPage.self).edges }
        b.bindSync("LikerConnection", "nodes") { try $0.parent(as: LikerPage.self).edges.map(\.profile) }
        b.bindSync("LikerConnection", "totalCount") { try $0.parent(as: LikerPage.self).totalCount }
        b.bindSync("LikerConnection", "pageInfo") { info in
            let page = try info.parent(as: LikerPage.self)
            return PageInfoValue(
                hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage,
                startCursor: page.edges.first?.cursor, endCursor: page.edges.last?.cursor)
        }
        b.bindSync("LikerEdge", "cursor") { try $0.parent(as: LikerEdge.self).cursor }
        b.bindSync("LikerEdge", "node") { try $0.parent(as: LikerEdge.self).profile }
        b.bindSync("LikerEdge", "likedAt") { try $0.parent(as: LikerEdge.self).likedAt }
        func comment(_ field: String, _ get: @escaping @Sendable (Comment) -> (any Sendable)?) {
            b.bindSync("Comment", field) { info in get(try info.parent(as: Comment.self)) }
        }
        comment("id") { $0.id.lowercased }
        comment("content") { $0.content }
        comment("createdAt") { $0.createdAt }
        b.bind("Comment", "author") { info in try await author(try info.parent(as: Comment.self).authorId, info) }
        b.bind("Comment", "post") { info in
            let request = try info.request
            guard let post = try await request.postsByID.load(try info.parent(as: Comment.self).postId) else {
                throw DomainError.postNotFound
            }
            return request.read(post)
        }
        b.bindSync("Profile", "postCount") { info in try info.parent(as: Profile.self).postCount }
        b.bind("Profile", "posts") { info in
            let profile = try info.parent(as: Profile.self)
            let page = try GetPostPages.request(
                author: profile.id, first: info.arguments.int("first"), after: info.arguments.string("after"),
                last: info.arguments.int("last"), before: info.arguments.string("before"))
            return try await load(page, info)
        }
        b.bind("Query", "feed") { info in
            let request = try info.request
            let page = try GetPostPages.feedRequest(
                first: info.arguments.int("first"), after: info.arguments.string("after"), viewer: request.viewer)
            return try await load(page, info)
        }
        b.bind("Query", "post") { info in
            let request = try info.request
            guard let text = info.arguments.string("id"), let id = UUID(parsing: text) else { return nil }
            return request.read(try await request.postsByID.load(id))
        }
        b.bindSync("PostConnection", "edges") { try $0.parent(as: PostPage.self).edges }
        b.bindSync("PostConnection", "nodes") { try $0.parent(as: PostPage.self).edges.map(\.post) }
        b.bindSync("PostConnection", "totalCount") { try $0.parent(as: PostPage.self).totalCount }
        b.bindSync("PostConnection", "pageInfo") { info in
            let page = try info.parent(as: PostPage.self)
            return PageInfoValue(
                hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage,
                startCursor: page.edges.first?.cursor, endCursor: page.edges.last?.cursor)
        }
        b.bindSync("PostEdge", "cursor") { try $0.parent(as: PostEdge.self).cursor }
        b.bindSync("PostEdge", "node") { try $0.parent(as: PostEdge.self).post }
        b.bindSync("CommentConnection", "edges") { try $0.parent(as: CommentPage.self).edges }
        b.bindSync("CommentConnection", "nodes") { try $0.parent(as: CommentPage.self).edges.map(\.comment) }
        b.bindSync("CommentConnection", "totalCount") { try $0.parent(as: CommentPage.self).totalCount }
        b.bindSync("CommentConnection", "pageInfo") { info in
            let page = try info.parent(as: CommentPage.self)
            return PageInfoValue(
                hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage,
                startCursor: page.edges.first?.cursor, endCursor: page.edges.last?.cursor)
        }
        b.bindSync("CommentEdge", "cursor") { try $0.parent(as: CommentEdge.self).cursor }
        b.bindSync("CommentEdge", "node") { try $0.parent(as: CommentEdge.self).comment }
    }

    /// The author of a post or comment: visible whenever the post is (visibility follows the
    /// author's profile), so a missing one means the store changed under us.
    static func author(_ id: UUID, _ info: ResolveInfo) async throws -> Profile {
        let request = try info.request
        if let me = request.viewer.userId, me != id, selectsFollowState(info) {
            // The viewer's follow state with the author goes in the authors' wave rather than in
            // the next: a feed page is then two round trips to Supabase, not three (issue 41).
            request.followStates.prefetch([id])
        }
        guard let profile = try await request.profilesByID.load(id) else { throw DomainError.profileNotFound }
        return request.read(profile) ?? profile
    }

    /// Whether the author's selection asks for the viewer's follow state with the author.
    static func selectsFollowState(_ info: ResolveInfo) -> Bool {
        guard case .object(let profile) = info.field.type.namedType else { return false }
        return info.selects("viewerIsFollowing", on: profile) || info.selects("followsViewer", on: profile)
    }

    /// A page of posts through the page loader, with the cache tags it depends on: its list (a
    /// profile's posts, or every profile a feed draws from), and each post it shows.
    static func load(_ page: PostPageRequest, _ info: ResolveInfo) async throws -> PostPage {
        let request = try info.request
        guard let loaded = try await request.postPages.load(page) else { throw DomainError.backendUnavailable }
        switch page.list {
        case .author(let id):
            request.readTags.record(CacheTags.posts(id))
        case .feed(let viewer):
            // New posts by the viewer or anyone they follow, a follow or unfollow, a profile turning
            // private: each changes the feed.
            request.readTags.record([CacheTags.following(viewer), CacheTags.followLists, CacheTags.posts(viewer)])
            if let sources = loaded.sources {
                request.readTags.record(sources.map(CacheTags.posts))
            } else {
                request.readTags.record(CacheTags.allFeeds)
            }
        }
        for edge in loaded.edges {
            request.read(edge.post)
            request.postsByID.prime(edge.post.id, edge.post)
        }
        return loaded
    }

    /// A post's likers through the page loader (one store call for every post of the level),
    /// with the tags a like, an unlike or a liker's visibility changes.
    static func likers(_ info: ResolveInfo) async throws -> LikerPage {
        let request = try info.request
        let post = try info.parent(as: Post.self)
        let page = try GetLikerPages.request(post: post.id, first: info.arguments.int("first"), after: info.arguments.string("after"))
        guard let loaded = try await request.likerPages.load(page) else { throw DomainError.postNotFound }
        request.readTags.record([CacheTags.post(post.id), CacheTags.followLists])
        for edge in loaded.edges {
            request.read(edge.profile)
            request.profilesByID.prime(edge.profile.id, edge.profile)
        }
        return loaded
    }

    /// A post's comments through the page loader.
    static func comments(_ info: ResolveInfo) async throws -> CommentPage {
        let request = try info.request
        let post = try info.parent(as: Post.self)
        let page = try GetCommentPages.request(
            post: post.id, first: info.arguments.int("first"), after: info.arguments.string("after"),
            last: info.arguments.int("last"), before: info.arguments.string("before"))
        guard let loaded = try await request.commentPages.load(page) else { throw DomainError.postNotFound }
        request.readTags.record([CacheTags.comments(post.id), CacheTags.post(post.id), CacheTags.followLists])
        for edge in loaded.edges {
            request.commentsByID.prime(edge.comment.id, edge.comment)
            request.readTags.record(CacheTags.profile(edge.comment.authorId))
        }
        return loaded
    }
}
