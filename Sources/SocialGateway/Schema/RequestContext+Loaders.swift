import Foundation
import GraphQLEngine
import SocialDomain

/// The request's loaders, each made on first use: a loader's batch is one call of the use case
/// that owns its rules, as the viewer of this request.
extension RequestContext {
    /// The loaders made so far (nil: not used yet by this request).
    struct Loaders {
        var profilesByID: DataLoader<UUID, Profile>?
        var profilesByHandle: DataLoader<String, Profile>?
        var followPages: DataLoader<FollowPageRequest, FollowPage>?
        var followStates: DataLoader<UUID, FollowState>?
        var followRequestStatuses: DataLoader<UUID, FollowRequestStatus>?
        var followedBy: DataLoader<FollowedByRequest, ProfileListPage>?
        var suggestions: DataLoader<Int, ProfileListPage>?
        var ownerDetails: DataLoader<UUID, ProfileOwnerDetails>?
        var postsByID: DataLoader<UUID, Post>?
        var commentsByID: DataLoader<UUID, Comment>?
        var postPages: DataLoader<PostPageRequest, PostPage>?
        var commentPages: DataLoader<CommentPageRequest, CommentPage>?
        var likerPages: DataLoader<LikerPageRequest, LikerPage>?
        var storiesByID: DataLoader<UUID, Story>?
    }

    /// The loader at `slot`, made by `make` the first time it is asked for.
    func loader<Key, Value>(
        _ slot: WritableKeyPath<Loaders, DataLoader<Key, Value>?>, _ make: () -> DataLoader<Key, Value>
    ) -> DataLoader<Key, Value> {
        loaders.withLock { loaders in
            if let made = loaders[keyPath: slot] { return made }
            let made = make()
            loaders[keyPath: slot] = made
            return made
        }
    }

    /// The loader at `slot` if this request made it (what it has not loaded needs no clearing).
    func made<Key, Value>(_ slot: KeyPath<Loaders, DataLoader<Key, Value>?>) -> DataLoader<Key, Value>? {
        loaders.withLock { $0[keyPath: slot] }
    }

    /// A loader whose batch runs `call` on one wave of keys, traced as `name`.
    private func wave<Key, Value>(
        _ name: String, _ call: @escaping @Sendable ([Key]) async throws -> [Key: Value]
    ) -> DataLoader<Key, Value> {
        let logger = logger
        return DataLoader(maxBatchSize: batchSize, batch: loaderWave(name) { keys in try await storeCall(logger) { try await call(keys) } })
    }

    /// A loader of pages: the use case answers in the keys' order.
    private func pages<Key, Value>(
        _ name: String, _ call: @escaping @Sendable ([Key]) async throws -> [Value]
    ) -> DataLoader<Key, Value> {
        wave(name) { requests in
            let loaded = try await call(requests)
            return Dictionary(zip(requests, loaded), uniquingKeysWith: { first, _ in first })
        }
    }

    var profilesByID: DataLoader<UUID, Profile> {
        loader(\.profilesByID) {
            let profiles = BatchGetProfiles(profiles: stores.profiles), viewer = viewer
            return wave("loader.profilesByID") { ids in try await profiles.load(ids: ids, viewer: viewer) }
        }
    }

    /// Keyed by ``BatchGetProfiles/handleKey(_:)``.
    var profilesByHandle: DataLoader<String, Profile> {
        loader(\.profilesByHandle) {
            let profiles = BatchGetProfiles(profiles: stores.profiles), viewer = viewer
            return wave("loader.profilesByHandle") { keys in try await profiles.load(handles: keys, viewer: viewer) }
        }
    }

    var followPages: DataLoader<FollowPageRequest, FollowPage> {
        loader(\.followPages) {
            let pages = GetFollowPages(follows: stores.follows), viewer = viewer
            return self.pages("loader.followPages") { requests in try await pages.execute(requests, viewer: viewer) }
        }
    }

    var followStates: DataLoader<UUID, FollowState> {
        loader(\.followStates) {
            let states = GetFollowStates(follows: stores.follows), viewer = viewer
            return wave("loader.followStates") { ids in
                let loaded = try await states.execute(profileIds: ids, viewer: viewer)
                return Dictionary(loaded.map { ($0.profileId, $0) }, uniquingKeysWith: { first, _ in first })
            }
        }
    }

    /// The viewer's follow-request status for profiles they see as cards (issue 40).
    var followRequestStatuses: DataLoader<UUID, FollowRequestStatus> {
        loader(\.followRequestStatuses) {
            let statuses = GetFollowRequestStatuses(requests: stores.follows), viewer = viewer
            return wave("loader.followRequestStatuses") { ids in try await statuses.execute(profileIds: ids, viewer: viewer) }
        }
    }

    /// "Followed by people you follow", one list per profile card (``GetFollowedByViewerFollowing``).
    var followedBy: DataLoader<FollowedByRequest, ProfileListPage> {
        loader(\.followedBy) {
            let mutuals = GetFollowedByViewerFollowing(graph: stores.socialGraph), viewer = viewer
            return pages("loader.followedBy") { requests in try await mutuals.execute(requests, viewer: viewer) }
        }
    }

    /// The viewer's suggestions by page size: one ranking for every `suggestedProfiles` of a wave.
    var suggestions: DataLoader<Int, ProfileListPage> {
        loader(\.suggestions) {
            let suggest = SuggestProfiles(graph: stores.socialGraph), viewer = viewer
            return wave("loader.suggestions") { limits in try await suggest.execute(limits: limits, viewer: viewer) }
        }
    }

    /// The owner-only fields; only ever asked for the viewer's own id (``GetOwnerDetails``).
    var ownerDetails: DataLoader<UUID, ProfileOwnerDetails> {
        loader(\.ownerDetails) {
            let details = GetOwnerDetails(profiles: stores.profiles), viewer = viewer
            return wave("loader.ownerDetails") { ids in
                var result: [UUID: ProfileOwnerDetails] = [:]
                for id in ids { result[id] = try await details.execute(profileId: id, viewer: viewer) }
                return result
            }
        }
    }

    var postsByID: DataLoader<UUID, Post> {
        loader(\.postsByID) {
            let posts = BatchGetPosts(posts: stores.posts), viewer = viewer
            return wave("loader.postsByID") { ids in try await posts.load(ids: ids, viewer: viewer) }
        }
    }

    var commentsByID: DataLoader<UUID, Comment> {
        loader(\.commentsByID) {
            let posts = BatchGetPosts(posts: stores.posts), viewer = viewer
            return wave("loader.commentsByID") { ids in try await posts.loadComments(ids: ids, viewer: viewer) }
        }
    }

    var postPages: DataLoader<PostPageRequest, PostPage> {
        loader(\.postPages) {
            let lists = GetPostPages(posts: stores.posts), viewer = viewer
            return pages("loader.postPages") { requests in try await lists.execute(requests, viewer: viewer) }
        }
    }

    var commentPages: DataLoader<CommentPageRequest, CommentPage> {
        loader(\.commentPages) {
            let lists = GetCommentPages(posts: stores.posts), viewer = viewer
            return pages("loader.commentPages") { requests in try await lists.execute(requests, viewer: viewer) }
        }
    }

    /// Every `Post.likers` of a query level in one store call (issue 54).
    var likerPages: DataLoader<LikerPageRequest, LikerPage> {
        loader(\.likerPages) {
            let lists = GetLikerPages(posts: stores.posts), viewer = viewer
            return pages("loader.likerPages") { requests in try await lists.execute(requests, viewer: viewer) }
        }
    }

    var storiesByID: DataLoader<UUID, Story> {
        loader(\.storiesByID) {
            let stories = stores.stories, viewer = viewer
            return wave("loader.storiesByID") { ids in try await stories.stories(ids: ids, viewer: viewer) }
        }
    }
}
