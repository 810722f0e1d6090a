import Foundation
import GraphQLEngine
import SocialDomain

/// Private profiles and follow requests (issue 40): `Query.followRequests`, the owner's answers,
/// `Query.sentFollowRequests` (issue 54: the viewer's own, to show "Requested"),
/// and what a card viewer reads of a profile (`viewerCanSeeDetails`, `viewerFollowRequestStatus`).
enum FollowRequestResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bindSync("Profile", "viewerCanSeeDetails") { info in SocialRules.sees(try info.parent(as: Profile.self).access) }
        b.bind("Profile", "viewerFollowRequestStatus", ready: { info in
            // Only a card can have the viewer's request pending: anything else needs no lookup.
            let profile = try info.parent(as: Profile.self)
            guard profile.access == .card else { return .ready(FollowRequestStatus.none.graphQLName) }
            let request = try info.request
            if let known = request.followRequestStatuses.peek(profile.id) { return .ready((try known.get() ?? .none).graphQLName) }
            guard let ready = request.ready,
                  let status = GetFollowRequestStatuses.ready(profileIds: [profile.id], viewer: request.viewer, from: ready)?[profile.id]
            else { return .notReady }
            return .ready(status.graphQLName)
        }, otherwise: { info in
            let request = try info.request
            let profile = try info.parent(as: Profile.self)
            return (try await request.followRequestStatuses.load(profile.id) ?? .none).graphQLName
        })
        b.bindSync("FollowPayload", "requestStatus") { try $0.parent(as: FollowPayloadValue.self).requestStatus.graphQLName }

        b.bind("Query", "followRequests") { info in
            let request = try info.request
            let page = try await storeCall(request.logger) {
                try await ListFollowRequests(requests: request.stores.follows).execute(
                    first: info.arguments.int("first"), after: info.arguments.string("after"), viewer: request.viewer)
            }
            if let me = request.viewer.userId { request.readTags.record(CacheTags.followRequests(me)) }
            for asked in page.requests { request.read(asked.requester) }
            return page
        }
        b.bind("Query", "sentFollowRequests") { info in
            let request = try info.request
            let page = try await storeCall(request.logger) {
                try await ListSentFollowRequests(requests: request.stores.follows).execute(
                    first: info.arguments.int("first"), after: info.arguments.string("after"), viewer: request.viewer)
            }
            if let me = request.viewer.userId { request.readTags.record(CacheTags.sentFollowRequests(me)) }
            for asked in page.requests { request.read(asked.target) }
            return page
        }
        // One connection type for both lists: a page of requests made to the viewer
        // (FollowRequestPage) or by the viewer (SentFollowRequestPage).
        b.bindSync("FollowRequestConnection", "edges") { info in
            if let sent = info.parent as? SentFollowRequestPage { return sent.requests }
            return try info.parent(as: FollowRequestPage.self).requests
        }
        b.bindSync("FollowRequestConnection", "totalCount") { info in
            if let sent = info.parent as? SentFollowRequestPage { return sent.totalCount }
            return try info.parent(as: FollowRequestPage.self).totalCount
        }
        b.bindSync("FollowRequestConnection", "pageInfo") { info in
            if let sent = info.parent as? SentFollowRequestPage {
                return PageInfoValue(
                    hasNextPage: sent.hasNextPage, hasPreviousPage: sent.hasPreviousPage,
                    startCursor: sent.requests.first?.cursor, endCursor: sent.requests.last?.cursor)
            }
            let page = try info.parent(as: FollowRequestPage.self)
            return PageInfoValue(
                hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage,
                startCursor: page.requests.first?.cursor, endCursor: page.requests.last?.cursor)
        }
        b.bindSync("FollowRequestEdge", "cursor") { info in
            if let sent = info.parent as? SentFollowRequest { return sent.cursor }
            return try info.parent(as: FollowRequest.self).cursor
        }
        b.bindSync("FollowRequestEdge", "node") { $0.parent }
        // The side that is not the viewer comes with the request, at once; the viewer's own
        // profile is loaded like `Query.viewer` (one batched read for the whole page).
        b.bind("FollowRequest", "requester", ready: { info in
            guard info.parent is SentFollowRequest else { return .ready(try info.parent(as: FollowRequest.self).requester) }
            return .notReady
        }, otherwise: { info in
            let request = try info.request
            return request.read(try await request.profilesByID.load(try info.parent(as: SentFollowRequest.self).requesterId))
        })
        b.bind("FollowRequest", "target", ready: { info in
            if let sent = info.parent as? SentFollowRequest { return .ready(sent.target) }
            return .notReady
        }, otherwise: { info in
            let request = try info.request
            return request.read(try await request.profilesByID.load(try info.parent(as: FollowRequest.self).targetId))
        })
        b.bindSync("FollowRequest", "requestedAt") { info in
            if let sent = info.parent as? SentFollowRequest { return sent.createdAt }
            return try info.parent(as: FollowRequest.self).createdAt
        }

        b.bind("Mutation", "approveFollowRequest") { info in try await answer(approve: true, info) }
        b.bind("Mutation", "declineFollowRequest") { info in try await answer(approve: false, info) }
        b.bindSync("FollowRequestPayload", "approved") { try $0.parent(as: FollowRequestAnswer.self).approved }
        b.bindSync("FollowRequestPayload", "requester") { try $0.parent(as: FollowRequestAnswer.self).requester }
        b.bindSync("FollowRequestPayload", "viewer") { try $0.parent(as: FollowRequestAnswer.self).owner }
    }

    /// `approveFollowRequest` / `declineFollowRequest`: the answer, then what changed for the
    /// cache (the owner's list and counts, the requester's view of the owner) and, for an
    /// approval, the follow as an activity.
    static func answer(approve: Bool, _ info: ResolveInfo) async throws -> FollowRequestAnswer {
        let request = try info.request
        let requester = try parseProfileID(info.arguments.string("profileId") ?? "", field: "profileId")
        let answer = try await storeCall(request.logger) {
            try await AnswerFollowRequest(requests: request.stores.follows).execute(
                requester: requester, approve: approve, viewer: request.viewer)
        }
        request.forgetFollows()
        request.remember(answer.owner)
        request.remember(answer.requester)
        var tags = [
            CacheTags.followRequests(answer.owner.id), CacheTags.sentFollowRequests(requester),
            CacheTags.profile(answer.owner.id), CacheTags.profile(requester),
        ]
        if approve {
            tags += [CacheTags.followers(answer.owner.id), CacheTags.following(requester)]
            request.activities.record(Activity(kind: .followed, actor: requester, subject: answer.owner.id, at: answer.at ?? ActivityLog.now))
        }
        request.changedTags.record(tags)
        return answer
    }
}

extension FollowRequestStatus {
    /// The GraphQL enum value (`NONE`, `PENDING`).
    var graphQLName: String { rawValue.uppercased() }
}
