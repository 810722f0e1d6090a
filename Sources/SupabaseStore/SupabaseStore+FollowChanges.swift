import Foundation
import SocialDomain
import SupabaseSchema

/// The sync of the viewer's own follows through `follow_changes` (migration 20250301000800).
extension SupabaseStore {
    /// `POST /rest/v1/rpc/follow_changes` with `{since_us, after_us, after_id, page_size}`;
    /// `limit + 1` rows tell whether a next page exists.
    public func followChanges(_ request: FollowSyncRequest, viewer: Viewer) async throws -> FollowSyncPage {
        try await call("followChanges") {
            guard viewer.userId != nil else { return FollowSyncPage(records: [], hasNextPage: false) }
            let arguments = FollowChangesArguments(
                since_us: request.sinceMicroseconds, after_us: request.after?.updatedAtMicroseconds,
                after_id: request.after?.followId.lowercased, page_size: request.rowsToFetch)
            let call = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/follow_changes",
                headers: [("Content-Type", "application/json")], body: try Self.json(arguments),
                idempotent: true, operation: "followChanges")
            let rows = try decode([FollowChangeRow].self, try await rest(call, viewer: viewer), "followChanges")
            let records = try rows.map { try $0.record() }
            return FollowSyncPage.assemble(request: request, fetched: records)
        }
    }
}

