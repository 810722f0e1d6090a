import Foundation
import SocialDomain
import SupabaseSchema

/// Follow requests through migration 20250301002300's functions, one request per call.
extension SupabaseStore: FollowRequestStore {
    /// `POST /rest/v1/rpc/pending_follow_requests` with `{"pairs": [{follower_id, followee_id}]}`.
    public func pendingFollowRequests(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        try await call("pendingFollowRequests") {
            guard viewer.userId != nil, !pairs.isEmpty else { return [] }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/pending_follow_requests",
                headers: [("Content-Type", "application/json")],
                body: try Self.json(PendingFollowRequestsArguments(pairs: Array(Set(pairs)))),
                idempotent: true, operation: "pendingFollowRequests")
            let rows = try decode([PendingFollowRequestRow].self, try await rest(request, viewer: viewer), "pendingFollowRequests")
            return Set(rows.compactMap(\.pair))
        }
    }

    /// `POST /rest/v1/rpc/follow_request_page` with `{after_us, after_id, page_size}`.
    public func followRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> FollowRequestPage {
        try await call("followRequestPage") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
            let http = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/follow_request_page",
                headers: [("Content-Type", "application/json")], body: try Self.json(TimePageBody(request)),
                idempotent: true, operation: "followRequestPage")
            return try decode(FollowRequestPageRow.self, try await rest(http, viewer: viewer), "followRequestPage").page(request, owner: me)
        }
    }

    /// `POST /rest/v1/rpc/sent_follow_request_page` with `{after_us, after_id, page_size}`
    /// (migration 20250301004000).
    public func sentFollowRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> SentFollowRequestPage {
        try await call("sentFollowRequestPage") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
            let http = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/sent_follow_request_page",
                headers: [("Content-Type", "application/json")], body: try Self.json(TimePageBody(request)),
                idempotent: true, operation: "sentFollowRequestPage")
            return try decode(SentFollowRequestPageRow.self, try await rest(http, viewer: viewer), "sentFollowRequestPage")
                .page(request, requester: me)
        }
    }

    /// `POST /rest/v1/rpc/answer_follow_request` with `{"requester", "approve"}`. Never retried.
    public func answerFollowRequest(from requester: UUID, approve: Bool, viewer: Viewer) async throws -> FollowRequestAnswer {
        try await call("answerFollowRequest") {
            struct Body: Encodable { var requester: String; var approve: Bool }
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/answer_follow_request",
                headers: [("Content-Type", "application/json")],
                body: try Self.json(Body(requester: requester.lowercased, approve: approve)),
                idempotent: false, operation: "answerFollowRequest")
            return try decode(FollowRequestAnswerRow.self, try await rest(request, viewer: viewer), "answerFollowRequest").answer()
        }
    }
}
