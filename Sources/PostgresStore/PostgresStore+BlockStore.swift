import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Blocks through migration 20250301002300's functions, one statement per call.
extension PostgresStore: BlockStore {
    public func changeBlock(of profileId: UUID, block: Bool, viewer: Viewer) async throws -> BlockOutcome {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .blockUsers) }
        let function = block ? "public.block_profile" : "public.unblock_profile"
        return try await call("changeBlock", viewer: viewer) { connection, logger in
            let rows = try await connection.query("select \(unescaped: function)(\(profileId)::uuid)::text", logger: logger)
            return try await Self.decodeJSON(BlockOutcomeRow.self, from: rows, "changeBlock").outcome()
        }
    }

    public func blockedProfilePage(_ request: TimePageRequest, viewer: Viewer) async throws -> BlockedProfilePage {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .blockUsers) }
        let afterUs = request.after?.createdAtMicroseconds
        let afterId = request.after?.id
        let pageSize = request.rowsToFetch
        return try await read("blockedProfilePage", viewer: viewer) { connection, logger in
            let rows = try await connection.query(
                "select public.blocked_profiles_page(\(afterUs)::bigint, \(afterId)::uuid, \(pageSize)::int)::text", logger: logger)
            return try await Self.decodeJSON(BlockedProfilePageRow.self, from: rows, "blockedProfilePage").page(request, owner: me)
        }
    }
}
