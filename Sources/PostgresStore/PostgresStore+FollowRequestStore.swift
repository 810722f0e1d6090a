import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Follow requests through migration 20250301002300's functions (and 20250301004000's for the
/// viewer's own), one statement per call.
extension PostgresStore: FollowRequestStore {
    public func pendingFollowRequests(among pairs: [FollowPair], viewer: Viewer) async throws -> Set<FollowPair> {
        guard viewer.userId != nil, !pairs.isEmpty else { return [] }
        let arguments = try Self.json(PendingFollowRequestsArguments(pairs: Array(Set(pairs))).pairs)
        return try await read("pendingFollowRequests", viewer: viewer) { connection, logger in
            let rows = try await connection.query(
                "select coalesce(json_agg(t), '[]')::text from public.pending_follow_requests(\(arguments)::jsonb) t",
                logger: logger)
            return Set(try await Self.decodeJSON([PendingFollowRequestRow].self, from: rows, "pendingFollowRequests").compactMap(\.pair))
        }
    }

    public func followRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> FollowRequestPage {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
        let afterUs = request.after?.createdAtMicroseconds
        let afterId = request.after?.id
        let pageSize = request.rowsToFetch
        return try await read("followRequestPage", viewer: viewer) { connection, logger in
            let rows = try await connection.query(
                "select public.follow_request_page(\(afterUs)::bigint, \(afterId)::uuid, \(pageSize)::int)::text", logger: logger)
            return try await Self.decodeJSON(FollowRequestPageRow.self, from: rows, "followRequestPage").page(request, owner: me)
        }
    }

    /// Migration 20250301004000's `sent_follow_request_page`.
    public func sentFollowRequestPage(_ request: TimePageRequest, viewer: Viewer) async throws -> SentFollowRequestPage {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
        let afterUs = request.after?.createdAtMicroseconds
        let afterId = request.after?.id
        let pageSize = request.limit + 1
        return try await read("sentFollowRequestPage", viewer: viewer) { connection, logger in
            let rows = try await connection.query(
                "select public.sent_follow_request_page(\(afterUs)::bigint, \(afterId)::uuid, \(pageSize)::int)::text", logger: logger)
            return try await Self.decodeJSON(SentFollowRequestPageRow.self, from: rows, "sentFollowRequestPage")
                .page(request, requester: me)
        }
    }

    public func answerFollowRequest(from requester: UUID, approve: Bool, viewer: Viewer) async throws -> FollowRequestAnswer {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .manageFollowRequests) }
        return try await call("answerFollowRequest", viewer: viewer) { connection, logger in
            let rows = try await connection.query(
                "select public.answer_follow_request(\(requester)::uuid, \(approve)::boolean)::text", logger: logger)
            return try await Self.decodeJSON(FollowRequestAnswerRow.self, from: rows, "answerFollowRequest").answer()
        }
    }
}
