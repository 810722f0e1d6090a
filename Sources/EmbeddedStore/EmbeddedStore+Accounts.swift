import Foundation
import GRDB
import SocialDomain

extension EmbeddedStore {
    /// Creates a profile row for a user, the embedded twin of Supabase's `handle_new_user`
    /// trigger (sign-up, the `token` command, tests), in seed 000's `createProfile(id, handle,
    /// photoURL, homeZIP)` shape: the handle rule, then the ZIP rule (``HomeZIPRule``, trimmed,
    /// empty means none). No photo URL: an avatar is set only by uploading one. Not a port
    /// method: the gateway never creates profiles on a client's behalf.
    ///
    /// ```swift
    /// let dana = try await store.createProfile(id: UUID(), handle: "dana_dyno", homeZIP: "80302")
    /// ```
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` for an invalid handle or ZIP, `HANDLE_TAKEN`.
    @discardableResult
    public func createProfile(
        id: UUID, handle: String, displayName: String? = nil, bio: String? = nil, isPublic: Bool = true,
        homeZIP: String? = nil
    ) async throws -> Profile {
        guard HandleRule.isValid(handle) else {
            throw DomainError.invalidHandle
        }
        var details = OwnerDetailChanges()
        if let zip = try homeZIP.flatMap(HomeZIPRule.validated) { details.homeZIP = .set(zip) }
        let now = UnixMicroseconds.from(options.clock.now())
        do {
            return try await pool.write { [details] db in
                let row = try Row.fetchOne(db, sql: """
                    INSERT INTO profiles (id, handle, display_name, bio, is_public, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING \(ProfileColumns.names.joined(separator: ", "))
                    """, arguments: [id.lowercased, handle, displayName, bio, isPublic, now, now])
                guard let row else { throw DomainError.backendUnavailable }
                try Self.writeOwnerDetails(db, id: id, changes: details, at: now)
                return try ProfileColumns.decode(row)
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw DomainError.handleTaken
        }
    }
}
