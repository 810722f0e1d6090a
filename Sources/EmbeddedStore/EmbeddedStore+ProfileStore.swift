import Foundation
import GRDB
import SocialDomain

/// Profiles: batched reads in one statement each, search, and the owner's updates.
extension EmbeddedStore: ProfileStore {
    /// Most keys bound in one `IN (...)` list; longer batches use more statements in one read.
    static let maxKeysPerStatement = 500

    public func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] {
        try await call(.profilesByID) {
            guard !ids.isEmpty else { return [:] }
            let keys = ids.map(\.lowercased)
            return try read { db in
                var result: [UUID: Profile] = [:]
                for chunk in keys.chunked(Self.maxKeysPerStatement) {
                    let sql = "SELECT \(ProfileColumns.selectWithAccess("p")) FROM profiles p "
                        + "WHERE p.id IN (\(placeholders(chunk.count))) AND \(ProfileColumns.visibleOrCard("p"))"
                    let arguments = [viewer.sqlId] + StatementArguments(chunk) + [viewer.sqlId, viewer.sqlId]
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
                        let profile = try ProfileColumns.decodeWithAccess(row)
                        result[profile.id] = profile
                    }
                }
                return result
            }
        }
    }

    public func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile] {
        try await call(.profilesByHandle) {
            guard !handles.isEmpty else { return [:] }
            let keys = handles.map { $0.lowercased() }
            return try read { db in
                var result: [String: Profile] = [:]
                for chunk in keys.chunked(Self.maxKeysPerStatement) {
                    let sql = "SELECT \(ProfileColumns.selectWithAccess("p")) FROM profiles p "
                        + "WHERE lower(p.handle) IN (\(placeholders(chunk.count))) AND \(ProfileColumns.visibleOrCard("p"))"
                    let arguments = [viewer.sqlId] + StatementArguments(chunk) + [viewer.sqlId, viewer.sqlId]
                    for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
                        let profile = try ProfileColumns.decodeWithAccess(row)
                        result[profile.handle.lowercased()] = profile
                    }
                }
                return result
            }
        }
    }

    /// Public profiles whose handle or display name contains the query (Unicode-aware case
    /// folding: the names were lower-cased by Swift when indexed; `%`, `_`, `\` are literal),
    /// ordered by ``SearchRank`` (exact handle, then handles starting with the query, then the
    /// rest), then lower-cased handle, then id, `limit + 1` rows to know whether a next page
    /// exists. Read through the search indexes, never a scan of `profiles`
    /// (``ProfileSearchQuery``).
    public func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage {
        try await call(.searchProfiles) {
            let profiles = try read { db in
                try ProfileSearchQuery.fetch(db, query, limit: query.rowsToFetch, viewer: viewer.sqlId)
            }
            return SearchPage.assemble(query: query, fetched: profiles)
        }
    }

    /// Any profile but the viewer's, private ones included (as `handle_available` reads as its
    /// definer): the unique index on `lower(handle)` answers it.
    public func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool {
        try await call(.handleTaken) {
            try read { db in
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM profiles WHERE lower(handle) = ? AND id IS NOT ?"),
                    arguments: [handleKey.lowercased(), viewer.userId?.lowercased]) ?? false
            }
        }
    }

    /// Emulates `profiles_update_own` and `profile_private_update_own`: only the owner; both
    /// parts in one transaction; a unique violation on the handle index is `HANDLE_TAKEN`.
    public func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile {
        try await call(.updateProfile) {
            guard viewer.userId == id else { throw DomainError.notProfileOwner }
            let now = UnixMicroseconds.from(changes.updatedAt)
            var sets = ["updated_at = ?"]
            var values: [(any DatabaseValueConvertible)?] = [now]
            func add(_ column: String, _ value: (any DatabaseValueConvertible)?) {
                sets.append("\(column) = ?")
                values.append(value)
            }
            func add(_ column: String, _ update: FieldUpdate<String>) {
                if !update.isKeep { add(column, update.applied(to: nil)) }
            }
            if let handle = changes.handle { add("handle", handle) }
            add("display_name", changes.displayName)
            add("bio", changes.bio)
            add("photo_url", changes.avatarURL)
            add("home_gym", changes.homeGym)
            add("favorite_style", changes.favoriteStyle)
            if !changes.climbingSince.isKeep { add("climbing_since", changes.climbingSince.applied(to: nil)?.description) }
            if let isPublic = changes.isPublic { add("is_public", isPublic) }
            let returning = "RETURNING \(ProfileColumns.names.joined(separator: ", "))"
            // Only the owner-only fields change: the row is read, its updated_at stays.
            let (sql, arguments): (String, StatementArguments) = changes.changesProfileRow
                ? ("UPDATE profiles SET \(sets.joined(separator: ", ")) WHERE id = ? \(returning)",
                   StatementArguments(values + [id.lowercased]))
                : ("SELECT \(ProfileColumns.names.joined(separator: ", ")) FROM profiles WHERE id = ?", [id.lowercased])
            do {
                return try await pool.write { db in
                    guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else {
                        throw DomainError.profileNotFound
                    }
                    try Self.writeOwnerDetails(db, id: id, changes: changes.ownerDetails, at: now)
                    if changes.isPublic == true,
                       try Self.approveAllPending(db, target: id.lowercased, at: now, newId: { self.options.random.uuid().lowercased }) > 0 {
                        // the approvals moved the follower count: read the row again
                        let sql = "SELECT \(ProfileColumns.names.joined(separator: ", ")) FROM profiles WHERE id = ?"
                        if let fresh = try Row.fetchOne(db, sql: sql, arguments: [id.lowercased]) { return try ProfileColumns.decode(fresh) }
                    }
                    return try ProfileColumns.decode(row)
                }
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw DomainError.handleTaken
            }
        }
    }
}

/// `?, ?, ?` for `count` parameters.
func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}

extension Array {
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
