import Foundation
import GraphQLEngine
import SocialDomain

/// Blocks (issue 40): `block`, `unblock` and the viewer's `blockedProfiles`.
enum BlockResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bind("Mutation", "block") { info in try await change(block: true, info) }
        b.bind("Mutation", "unblock") { info in try await change(block: false, info) }
        b.bindSync("BlockPayload", "blocked") { try $0.parent(as: BlockOutcome.self).blocked }
        b.bindSync("BlockPayload", "viewer") { try $0.parent(as: BlockOutcome.self).viewer }

        b.bind("Query", "blockedProfiles") { info in
            let request = try info.request
            let page = try await storeCall(request.logger) {
                try await ListBlockedProfiles(blocks: request.stores.follows).execute(
                    first: info.arguments.int("first"), after: info.arguments.string("after"), viewer: request.viewer)
            }
            if let me = request.viewer.userId { request.readTags.record(CacheTags.blocked(me)) }
            return page
        }
        b.bindSync("BlockedProfileConnection", "edges") { try $0.parent(as: BlockedProfilePage.self).blocked }
        b.bindSync("BlockedProfileConnection", "totalCount") { try $0.parent(as: BlockedProfilePage.self).totalCount }
        b.bindSync("BlockedProfileConnection", "pageInfo") { info in
            let page = try info.parent(as: BlockedProfilePage.self)
            return PageInfoValue(
                hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage,
                startCursor: page.blocked.first?.cursor, endCursor: page.blocked.last?.cursor)
        }
        b.bindSync("BlockedProfileEdge", "cursor") { try $0.parent(as: BlockedProfile.self).cursor }
        b.bindSync("BlockedProfileEdge", "node") { try $0.parent(as: BlockedProfile.self).profile }
        b.bindSync("BlockedProfileEdge", "blockedAt") { try $0.parent(as: BlockedProfile.self).blockedAt }
    }

    /// `block` / `unblock`: then everything either profile's answers may hold of the other is
    /// stale (their profiles, every list and feed, search), here and on every replica.
    static func change(block: Bool, _ info: ResolveInfo) async throws -> BlockOutcome {
        let request = try info.request
        let other = try parseProfileID(info.arguments.string("profileId") ?? "", field: "profileId")
        let outcome = try await storeCall(request.logger) {
            try await ChangeBlock(blocks: request.stores.follows).execute(profileId: other, block: block, viewer: request.viewer)
        }
        request.forgetFollows()
        request.profilesByID.clear(other)
        request.remember(outcome.viewer)
        let me = outcome.viewer.id
        if outcome.changed {
            request.changedTags.record([
                CacheTags.profile(me), CacheTags.profile(other), CacheTags.followers(me), CacheTags.followers(other),
                CacheTags.following(me), CacheTags.following(other), CacheTags.followRequests(me), CacheTags.followRequests(other),
                CacheTags.blocked(me), CacheTags.followLists, CacheTags.allFeeds, CacheTags.search,
            ])
        }
        return outcome
    }
}
