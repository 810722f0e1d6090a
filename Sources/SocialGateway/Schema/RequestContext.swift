import Foundation
import GraphQLEngine
import Logging
import SocialDomain

/// Everything a resolver may use for one request: the viewer, the use cases, the
/// request's files and its loaders. Loaders are per request: their cache is this
/// request's view of the data, never shared with another viewer.
final class RequestContext: Sendable {
    let viewer: Viewer
    let stores: GatewayStores
    let files: [String: UploadedFile]
    let logger: Logger
    let clientAddress: String?
    let accountLimits: AccountLimits
    let followLimits: FollowLimits?
    let endedSessions: EndedSessions?
    /// What the HTTP request may still spend (shared by a batch's operations).
    let budget: RequestBudget
    /// What this request read (for the cache's invalidation tags) and what it changed.
    let readTags: CacheTags
    let changedTags = CacheTags()
    /// What this request's mutations did that subscribers may be told of.
    let activities = ActivityLog()
    /// Reads answered at once from the graph in memory (``GraphMemory``), when it is on:
    /// resolvers try them before their loaders.
    let ready: (any ReadyGraphReads)?

    let profilesByID: DataLoader<UUID, Profile>
    /// Keyed by ``BatchGetProfiles/handleKey(_:)``.
    let profilesByHandle: DataLoader<String, Profile>
    let followPages: DataLoader<FollowPageRequest, FollowPage>
    let followStates: DataLoader<UUID, FollowState>
    /// The viewer's follow-request status for profiles they see as cards (issue 40).
    let followRequestStatuses: DataLoader<UUID, FollowRequestStatus>
    /// "Followed by people you follow", one list per profile card (``GetFollowedByViewerFollowing``).
    let followedBy: DataLoader<FollowedByRequest, ProfileListPage>
    /// The viewer's suggestions by page size: one ranking for every `suggestedProfiles` of a wave.
    let suggestions: DataLoader<Int, ProfileListPage>
    /// The owner-only fields; only ever asked for the viewer's own id (``GetOwnerDetails``).
    let ownerDetails: DataLoader<UUID, ProfileOwnerDetails>
    let postsByID: DataLoader<UUID, Post>
    let commentsByID: DataLoader<UUID, Comment>
    let postPages: DataLoader<PostPageRequest, PostPage>
    let commentPages: DataLoader<CommentPageRequest, CommentPage>
    /// Every `Post.likers` of a query level in one store call (issue 54).
    let likerPages: DataLoader<LikerPageRequest, LikerPage>
    let storiesByID: DataLoader<UUID, Story>

    init(
        viewer: Viewer, stores: GatewayStores, files: [String: UploadedFile], batchSize: Int, logger: Logger,
        clientAddress: String? = nil, accountLimits: AccountLimits = AccountLimits(), followLimits: FollowLimits? = nil, endedSessions: EndedSessions? = nil,
        budget: RequestBudget = RequestBudget(), ready: (any ReadyGraphReads)? = nil, recordsReads: Bool = true
    ) {
        self.ready = ready
        self.readTags = CacheTags(recording: recordsReads)
        self.clientAddress = clientAddress
        self.accountLimits = accountLimits
        self.followLimits = followLimits
        self.endedSessions = endedSessions
        self.budget = budget
        self.viewer = viewer
        self.stores = stores
        self.files = files
        self.logger = logger
        // Each loader's batch is one call of the use case that owns its rules.
        let profiles = BatchGetProfiles(profiles: stores.profiles)
        let pages = GetFollowPages(follows: stores.follows)
        let states = GetFollowStates(follows: stores.follows)
        let mutuals = GetFollowedByViewerFollowing(graph: stores.socialGraph)
        let details = GetOwnerDetails(profiles: stores.profiles)
        let postsByIDs = BatchGetPosts(posts: stores.posts)
        let postLists = GetPostPages(posts: stores.posts)
        let commentLists = GetCommentPages(posts: stores.posts)
        let storyStore = stores.stories
        storiesByID = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.storiesByID") { ids in
            try await storeCall(logger) { try await storyStore.stories(ids: ids, viewer: viewer) }
        })
        postsByID = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.postsByID") { ids in
            try await storeCall(logger) { try await postsByIDs.load(ids: ids, viewer: viewer) }
        })
        commentsByID = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.commentsByID") { ids in
            try await storeCall(logger) { try await postsByIDs.loadComments(ids: ids, viewer: viewer) }
        })
        postPages = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.postPages") { requests in
            let loaded = try await storeCall(logger) { try await postLists.execute(requests, viewer: viewer) }
            return Dictionary(zip(requests, loaded), uniquingKeysWith: { first, _ in first })
        })
        commentPages = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.commentPages") { requests in
            let loaded = try await storeCall(logger) { try await commentLists.execute(requests, viewer: viewer) }
            return Dictionary(zip(requests, loaded), uniquingKeysWith: { first, _ in first })
        })
        let likerLists = GetLikerPages(posts: stores.posts)
        likerPages = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.likerPages") { requests in
            let loaded = try await storeCall(logger) { try await likerLists.execute(requests, viewer: viewer) }
            return Dictionary(zip(requests, loaded), uniquingKeysWith: { first, _ in first })
        })
        profilesByID = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.profilesByID") { ids in
            try await storeCall(logger) { try await profiles.load(ids: ids, viewer: viewer) }
        })
        profilesByHandle = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.profilesByHandle") { keys in
            try await storeCall(logger) { try await profiles.load(handles: keys, viewer: viewer) }
        })
        followPages = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.followPages") { requests in
            let loaded = try await storeCall(logger) { try await pages.execute(requests, viewer: viewer) }
            return Dictionary(zip(requests, loaded), uniquingKeysWith: { first, _ in first })
        })
        followedBy = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.followedBy") { requests in
            let loaded = try await storeCall(logger) { try await mutuals.execute(requests, viewer: viewer) }
            return Dictionary(zip(requests, loaded), uniquingKeysWith: { first, _ in first })
        })
        let suggest = SuggestProfiles(graph: stores.socialGraph)
        suggestions = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.suggestions") { limits in
            try await storeCall(logger) { try await suggest.execute(limits: limits, viewer: viewer) }
        })
        followStates = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.followStates") { ids in
            let loaded = try await storeCall(logger) { try await states.execute(profileIds: ids, viewer: viewer) }
            return Dictionary(loaded.map { ($0.profileId, $0) }, uniquingKeysWith: { first, _ in first })
        })
        let requestStatuses = GetFollowRequestStatuses(requests: stores.follows)
        followRequestStatuses = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.followRequestStatuses") { ids in
            try await storeCall(logger) { try await requestStatuses.execute(profileIds: ids, viewer: viewer) }
        })
        ownerDetails = DataLoader(maxBatchSize: batchSize, batch: loaderWave("loader.ownerDetails") { ids in
            var result: [UUID: ProfileOwnerDetails] = [:]
            for id in ids {
                result[id] = try await storeCall(logger) { try await details.execute(profileId: id, viewer: viewer) }
            }
            return result
        })
    }

    /// Records that the response shows `profile` (cache tag `Profile:<id>`).
    @discardableResult
    func read(_ profile: Profile?) -> Profile? {
        if let profile, readTags.isRecording { readTags.record(CacheTags.profile(profile.id)) }
        return profile
    }

    /// The profile a mutation returned replaces what this request had loaded.
    func remember(_ profile: Profile) {
        ownerDetails.clear(profile.id)
        profilesByID.clear(profile.id)
        profilesByID.prime(profile.id, profile)
        if let key = BatchGetProfiles.handleKey(profile.handle) { profilesByHandle.clear(key) }
    }

    /// After a follow change, the states and pages this request loaded are stale (a feed too).
    func forgetFollows() {
        followStates.clearAll()
        followRequestStatuses.clearAll()
        followPages.clearAll()
        followedBy.clearAll()
        suggestions.clearAll()
        postPages.clearAll()
    }

    /// Records that the response shows `post` (`Post:<id>`), and that it depends on its author's
    /// profile (`Profile:<author>`): the post is visible only while the author is.
    @discardableResult
    func read(_ post: Post?) -> Post? {
        if let post, readTags.isRecording { readTags.record([CacheTags.post(post.id), CacheTags.profile(post.authorId)]) }
        return post
    }

    /// After a post, like or comment changed, what this request loaded of posts is stale.
    func forgetPosts() {
        postsByID.clearAll()
        commentsByID.clearAll()
        postPages.clearAll()
        commentPages.clearAll()
        likerPages.clearAll()
    }
}

/// Runs a store call; failures that are not domain errors become BACKEND_UNAVAILABLE
/// for the client, with the detail in the log (never in the response).
/// A loader's batch function whose every call (one wave of that loader) is a span named `name`
/// in a traced request, with the number of keys (``GatewayTracing``).
func loaderWave<Key: Sendable, Value: Sendable>(
    _ name: String, _ batch: @escaping DataLoader<Key, Value>.BatchFunction
) -> DataLoader<Key, Value>.BatchFunction {
    { keys in
        try await GatewayTracing.wave(name, keys: keys.count) { try await batch(keys) }
    }
}

func storeCall<T>(_ logger: Logger, _ call: () async throws -> T) async throws -> T {
    try await backend(onFailure: { logger.error("store call failed", metadata: ["error": "\($0)"]) }, call)
}
