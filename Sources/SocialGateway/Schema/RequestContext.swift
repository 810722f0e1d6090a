import Foundation
import GraphQLEngine
import Logging
import SocialDomain
import Synchronization

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

    /// The most keys one loader call sends to a store.
    let batchSize: Int
    /// This request's loaders, each made when first used (``RequestContext+Loaders.swift``): a
    /// card reads from memory and touches two or three of the fourteen, and making them all
    /// was about 3.5% of its CPU.
    let loaders = Mutex(Loaders())

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
        self.batchSize = batchSize
    }

    /// Records that the response shows `profile` (cache tag `Profile:<id>`).
    @discardableResult
    func read(_ profile: Profile?) -> Profile? {
        if let profile, readTags.isRecording { readTags.record(CacheTags.profile(profile.id)) }
        return profile
    }

    /// The profile a mutation returned replaces what this request had loaded.
    func remember(_ profile: Profile) {
        made(\.ownerDetails)?.clear(profile.id)
        profilesByID.clear(profile.id)
        profilesByID.prime(profile.id, profile)
        if let key = BatchGetProfiles.handleKey(profile.handle) { made(\.profilesByHandle)?.clear(key) }
    }

    /// After a follow change, the states and pages this request loaded are stale (a feed too).
    func forgetFollows() {
        made(\.followStates)?.clearAll()
        made(\.followRequestStatuses)?.clearAll()
        made(\.followPages)?.clearAll()
        made(\.followedBy)?.clearAll()
        made(\.suggestions)?.clearAll()
        made(\.postPages)?.clearAll()
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
        made(\.postsByID)?.clearAll()
        made(\.commentsByID)?.clearAll()
        made(\.postPages)?.clearAll()
        made(\.commentPages)?.clearAll()
        made(\.likerPages)?.clearAll()
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
