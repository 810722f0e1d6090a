import Foundation
import SocialDomain
import SupabaseSchema

/// Blocks through migration 20250301002300's functions, one request per call.
extension SupabaseStore: BlockStore {
    /// `POST /rest/v1/rpc/block_profile | unblock_profile` with `{"target": "<uuid>"}`. Never retried.
    public func changeBlock(of profileId: UUID, block: Bool, viewer: Viewer) async throws -> BlockOutcome {
        try await call("changeBlock") {
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/\(block ? "block_profile" : "unblock_profile")",
                headers: [("Content-Type", "application/json")], body: try Self.json(["target": profileId.lowercased]),
                idempotent: false, operation: "changeBlock")
            return try decode(BlockOutcomeRow.self, try await rest(request, viewer: viewer), "changeBlock").outcome()
        }
    }

    /// `POST /rest/v1/rpc/blocked_profiles_page` with `{after_us, after_id, page_size}`.
    public func blockedProfilePage(_ request: TimePageRequest, viewer: Viewer) async throws -> BlockedProfilePage {
        try await call("blockedProfilePage") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .blockUsers) }
            let http = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/blocked_profiles_page",
                headers: [("Content-Type", "application/json")], body: try Self.json(TimePageBody(request)),
                idempotent: true, operation: "blockedProfilePage")
            return try decode(BlockedProfilePageRow.self, try await rest(http, viewer: viewer), "blockedProfilePage").page(request, owner: me)
        }
    }
}

/// `{after_us, after_id, page_size}` with explicit nulls, as the page functions take it.
struct TimePageBody: Encodable {
    var after_us: Int64?
    var after_id: String?
    var page_size: Int
    init(_ request: TimePageRequest) {
        after_us = request.after?.createdAtMicroseconds
        after_id = request.after?.id.lowercased
        page_size = request.rowsToFetch
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(after_us, forKey: .after_us)
        try c.encode(after_id, forKey: .after_id)
        try c.encode(page_size, forKey: .page_size)
    }
    enum CodingKeys: String, CodingKey { case after_us, after_id, page_size }
}
