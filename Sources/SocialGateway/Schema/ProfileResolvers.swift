import Foundation
import GraphQLEngine
import SocialDomain

/// `Profile`: plain reads of the loaded profile (the synchronous fast path), the
/// viewer's follow states and the follow lists (through loaders).
enum ProfileResolvers {
    static func bind(_ b: inout SchemaBinder) {
        func read(_ field: String, _ get: @escaping @Sendable (Profile) -> (any Sendable)?) {
            b.bindSync("Profile", field) { info in get(try info.parent(as: Profile.self)) }
        }
        read("id") { $0.id.lowercased }
        read("handle") { $0.handle }
        read("displayName") { $0.displayName }
        read("bio") { $0.bio }
        read("avatarURL") { $0.avatarURL }
        read("homeGym") { $0.homeGym }
        read("climbingSince") { $0.climbingSince }
        read("favoriteStyle") { $0.favoriteStyle }
        read("isPublic") { $0.isPublic }
        read("followerCount") { $0.followerCount }
        read("followingCount") { $0.followingCount }
        read("sendCount") { $0.sendCount }
        read("createdAt") { $0.createdAt }
        read("updatedAt") { $0.updatedAt }
        // Inline for anyone but the owner (null) and once loaded; the owner's first read waits.
        func ownerOnly(_ field: String, _ get: @escaping @Sendable (ProfileOwnerDetails) -> (any Sendable)?) {
            b.bind("Profile", field, ready: { info in
                try knownOwnerDetails(info).map { .ready($0.flatMap(get)) } ?? .notReady
            }, otherwise: { info in
                try await ownerDetails(info).flatMap(get)
            })
        }
        ownerOnly("homeZIP") { $0.homeZIP }
        ownerOnly("preferredGradeScaleBoulder") { $0.preferredGradeScaleBoulder }
        ownerOnly("preferredGradeScaleRoute") { $0.preferredGradeScaleRoute }
        ownerOnly("premium") { $0.premium }
        b.bindSync("PremiumStatus", "expiresAt") { info in try info.parent(as: PremiumStatus.self).expiresAt }
        b.bindSync("PremiumStatus", "productId") { info in try info.parent(as: PremiumStatus.self).productId }
        b.bindSync("PremiumStatus", "originalTransactionId") { info in
            try info.parent(as: PremiumStatus.self).originalTransactionId
        }
        // Inline when the state is known (it came with the follow page listing the profile, or
        // there is none to know); otherwise through the state loader. Either way the edge rule
        // decides (SocialRules): a follow shows only toward a profile the viewer sees whole.
        func relation(_ field: String, _ flag: @escaping @Sendable (FollowState?, ProfileAccess) -> Bool) {
            b.bind("Profile", field, ready: { info in
                let access = try info.parent(as: Profile.self).access
                return try knownFollowState(info).map { .ready(flag($0, access)) } ?? .notReady
            }, otherwise: { info in
                flag(try await followState(info), try info.parent(as: Profile.self).access)
            })
        }
        relation("viewerIsFollowing") { state, access in
            SocialRules.viewerIsFollowing(viewerFollowsProfile: state?.viewerIsFollowing ?? false, access: access)
        }
        relation("followsViewer") { state, access in
            SocialRules.followsViewer(profileFollowsViewer: state?.followsViewer ?? false, access: access)
        }
        b.bind("Profile", "followers", ready: { info in try readyFollowList(.followers, info) }, otherwise: { info in
            try await followList(.followers, info)
        })
        b.bind("Profile", "following", ready: { info in try readyFollowList(.following, info) }, otherwise: { info in
            try await followList(.following, info)
        })
        b.bind("Profile", "followedByViewerFollowing") { info in try await followedByViewerFollowing(info) }
    }

    /// The parent profile's owner-only fields: nil (so null) for anyone but its owner, without a
    /// store call. The answer already carries the profile's tag, so `updateProfile` invalidates it.
    static func ownerDetails(_ info: ResolveInfo) async throws -> ProfileOwnerDetails? {
        let request = try info.request
        let profile = try info.parent(as: Profile.self)
        guard GetOwnerDetails.isOwner(request.viewer, of: profile.id) else { return nil }
        return try await request.ownerDetails.load(profile.id)
    }

    /// The parent profile's owner-only fields when known without waiting: `.some(nil)` for anyone
    /// but the owner, `.some(details)` once loaded, nil when they must be loaded.
    static func knownOwnerDetails(_ info: ResolveInfo) throws -> ProfileOwnerDetails?? {
        let request = try info.request
        let profile = try info.parent(as: Profile.self)
        guard GetOwnerDetails.isOwner(request.viewer, of: profile.id) else { return .some(nil) }
        guard let known = request.ownerDetails.peek(profile.id) else { return nil }
        return .some(try known.get())
    }

    /// The viewer's relation to the parent profile when it is known without waiting: `.some(nil)`
    /// (so false) for anonymous viewers and for oneself, `.some(state)` when the state loader
    /// already holds it, nil when it must be loaded.
    static func knownFollowState(_ info: ResolveInfo) throws -> FollowState?? {
        let request = try info.request
        let profile = try info.parent(as: Profile.self)
        guard let me = request.viewer.userId, me != profile.id else { return .some(nil) }
        // Listed by a page that read the state with it: no lookup at all.
        if let listed = profile.listedViewerState { return .some(listed) }
        if let known = request.followStates.peek(profile.id) { return .some(try known.get()) }
        // From the graph in memory: the state is kept for the rest of the request like a loaded one.
        guard let ready = request.ready,
              let state = GetFollowStates.ready(profileIds: [profile.id], viewer: request.viewer, from: ready)?.first
        else { return nil }
        request.followStates.prime(profile.id, state)
        return .some(state)
    }

    /// The viewer's relation to the parent profile; nil (so false) for anonymous viewers and for oneself.
    static func followState(_ info: ResolveInfo) async throws -> FollowState? {
        let request = try info.request
        let profile = try info.parent(as: Profile.self)
        guard let me = request.viewer.userId, me != profile.id else { return nil }
        return try await request.followStates.load(profile.id)
    }

    /// The parent's page of followers or following from the graph in memory, when it holds it.
    static func readyFollowList(_ kind: FollowList.Kind, _ info: ResolveInfo) throws -> Readiness {
        let request = try info.request
        guard let ready = request.ready else { return .notReady }
        let profile = try info.parent(as: Profile.self)
        let page = try pageRequest(kind, info, of: profile, request)
        if let card = cardPage(page, of: profile, request) { return .ready(card) }
        guard let loaded = GetFollowPages.ready(page, viewer: request.viewer, from: ready) else { return .notReady }
        return .ready(recorded(loaded, kind, of: profile, request))
    }

    /// The Relay arguments of a list field, checked by the domain.
    static func pageRequest(_ kind: FollowList.Kind, _ info: ResolveInfo, of profile: Profile, _ request: RequestContext) throws -> FollowPageRequest {
        try GetFollowPages.request(
            kind, of: profile.id, first: info.arguments.int("first"), after: info.arguments.string("after"),
            last: info.arguments.int("last"), before: info.arguments.string("before"), viewer: request.viewer)
    }

    /// A private profile's lists behind its card (``SocialRules/showsLists(of:)``): empty,
    /// counted 0; nil when the viewer sees the whole profile.
    static func cardPage(_ page: FollowPageRequest, of profile: Profile, _ request: RequestContext) -> ConnectionValue? {
        guard !SocialRules.showsLists(of: profile.access) else { return nil }
        request.read(profile)
        let stored = page.list.kind == .followers ? profile.followerCount : profile.followingCount
        let total = SocialRules.listTotal(storedCount: stored, access: profile.access)
        return .follows(FollowPage(list: page.list, edges: [], hasNextPage: false, hasPreviousPage: false, totalCount: total))
    }

    /// A page of followers or following, validated by the domain, loaded in a batch.
    static func followList(_ kind: FollowList.Kind, _ info: ResolveInfo) async throws -> ConnectionValue {
        let request = try info.request
        let profile = try info.parent(as: Profile.self)
        // The parent was read through the request's loader, so it is visible to this viewer.
        let page = try pageRequest(kind, info, of: profile, request)
        if let card = cardPage(page, of: profile, request) { return card }
        guard let loaded = try await request.followPages.load(page) else {
            throw DomainError.profileNotFound
        }
        return recorded(loaded, kind, of: profile, request)
    }

    /// A loaded page, its tags and its profiles' follow states recorded in the request.
    static func recorded(_ loaded: FollowPage, _ kind: FollowList.Kind, of profile: Profile, _ request: RequestContext) -> ConnectionValue {
        // A page's tags and states are recorded under one lock each, not one per row: the 50
        // pages of a graph resume on both threads at once and contended row by row.
        if request.readTags.isRecording {
            var tags = [kind == .followers ? CacheTags.followers(profile.id) : CacheTags.following(profile.id), CacheTags.followLists]
            tags.reserveCapacity(loaded.edges.count + 2)
            for edge in loaded.edges { tags.append(CacheTags.profile(edge.profile.id)) }
            request.readTags.record(tags)
        }
        // The store read the viewer's relation to each profile with the page, and each edge's
        // profile carries it (``Profile/listedViewerState``): the next level's
        // viewerIsFollowing/followsViewer cost no round trip and no lookup.
        return .follows(loaded)
    }

    /// "Followed by X, Y and 12 others": the profiles the viewer follows who follow the parent,
    /// one store call per query level (the loader's wave). Empty, without a store call, for an
    /// anonymous viewer, on the viewer's own profile, and on a private profile the viewer sees
    /// only as a card: the list names its followers, which `followers` keeps behind the card
    /// (``SocialRules/showsLists(of:)``); every store applies the same rule (issue 51).
    ///
    /// The answer depends on the viewer's follows (`following:<viewer>`), on the parent's
    /// followers (`followers:<parent>`), on visibility (`follow-lists`) and on the listed profiles.
    static func followedByViewerFollowing(_ info: ResolveInfo) async throws -> ConnectionValue {
        let request = try info.request
        let profile = try info.parent(as: Profile.self)
        guard let list = try GetFollowedByViewerFollowing.request(of: profile.id, first: info.arguments.int("first"), viewer: request.viewer),
              let me = request.viewer.userId else {
            return .ranked(.empty)
        }
        var tags = [CacheTags.following(me), CacheTags.followers(profile.id), CacheTags.followLists]
        if !SocialRules.showsLists(of: profile.access) {
            // The card's answer ends when the viewer's request is approved (a follow of theirs).
            request.readTags.record(tags + [CacheTags.profile(profile.id)])
            return .ranked(.empty)
        }
        let page = try await request.followedBy.load(list) ?? .empty
        tags += page.profiles.map { CacheTags.profile($0.id) }
        request.readTags.record(tags)
        return .ranked(page)
    }
}
