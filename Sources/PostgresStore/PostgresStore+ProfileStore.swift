import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// Profiles: `= any($1)` reads (one statement for any number of keys, binary columns:
/// ``ProfileColumns``), search through `search_profiles`, updates with only the changed columns.
/// RLS hides what the viewer may not see.
extension PostgresStore: ProfileStore {
    /// `json_build_object(...)` of a profile row under `alias`, with exactly the keys PostgREST's
    /// `select=<cols>` gives (``ProfileRow/columnNames``).
    static func profileObject(_ alias: String) -> String {
        "json_build_object(" + ProfileRow.columnNames.map { "'\($0)', \(alias).\($0)" }.joined(separator: ", ") + ")"
    }

    public func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] {
        let keys = Array(Set(ids))
        guard !keys.isEmpty else { return [:] }
        return try await read("profilesByID", viewer: viewer) { connection, logger in
            var profiles: [Profile] = []
            for try await profile in try await connection.execute(ProfilesByIDStatement(ids: keys), logger: logger) {
                if let profile { profiles.append(profile) }
            }
            // A signed-in viewer sees the card of a private profile RLS hid (ProfileAccess).
            let missing = Set(keys).subtracting(profiles.map(\.id))
            if viewer.userId != nil, !missing.isEmpty {
                let cards = try await connection.query(
                    "select public.profile_cards(\(Array(missing))::uuid[], '{}')::text", logger: logger)
                profiles += try await Self.decodeJSON([ProfileRow].self, from: cards, "profilesByID").map { try $0.profile() }
            }
            return Dictionary(profiles.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile] {
        let keys = Array(Set(handles.map { $0.lowercased() }))
        guard !keys.isEmpty else { return [:] }
        return try await read("profilesByHandle", viewer: viewer) { connection, logger in
            var profiles: [Profile] = []
            for try await profile in try await connection.execute(ProfilesByHandleStatement(handles: keys), logger: logger) {
                if let profile { profiles.append(profile) }
            }
            let missing = Set(keys).subtracting(profiles.map { $0.handle.lowercased() })
            if viewer.userId != nil, !missing.isEmpty {
                let cards = try await connection.query(
                    "select public.profile_cards('{}', \(Array(missing))::text[])::text", logger: logger)
                profiles += try await Self.decodeJSON([ProfileRow].self, from: cards, "profilesByHandle").map { try $0.profile() }
            }
            return Dictionary(profiles.map { ($0.handle.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// `handle_available` (migration 20250301000700), a definer function: RLS hides the private
    /// profiles that hold handles too.
    public func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool {
        try await read("handleTaken", viewer: viewer) { connection, logger in
            let rows = try await connection.query("select not public.handle_available(\(handleKey)::text)", logger: logger)
            for try await taken in rows.decode(Bool.self) { return taken }
            throw MalformedRow("handle_available returned no row")
        }
    }

    /// `search_profiles_ranked` with the escaped pattern, the lower-case query (the rank) and the
    /// keyset; `limit + 1` rows tell whether a next page exists. The function's order is kept
    /// (`with ordinality`).
    public func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage {
        try await read("searchProfiles", viewer: viewer) { connection, logger in
            let pattern = query.containsPattern
            let queryKey = query.textKey
            let afterRank = query.after?.rank.rawValue
            let afterHandle = query.after?.handleKey
            let afterId = query.after?.profileId
            let pageSize = query.rowsToFetch
            let rows = try await connection.query("""
                select coalesce(json_agg(\(unescaped: Self.profileObject("s")) order by s.ordinality), '[]')::text
                from public.search_profiles_ranked(\(pattern)::text, \(queryKey)::text, \(afterRank)::int,
                                                   \(afterHandle)::text, \(afterId)::uuid, \(pageSize)::int) with ordinality as s
                """, logger: logger)
            let profiles = try await Self.decodeJSON([ProfileRow].self, from: rows, "searchProfiles").map { try $0.profile() }
            return SearchPage.assemble(query: query, fetched: profiles)
        }
    }

    /// The caller's own `profile_private` row (RLS returns no other); none reads as empty details.
    public func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails {
        guard let me = viewer.userId else { return ProfileOwnerDetails() }
        return try await read("ownerDetails", viewer: viewer) { connection, logger in
            let rows = try await connection.query("""
                select coalesce(json_agg(t), '[]')::text
                from (select \(unescaped: OwnerDetailsRow.columns) from public.profile_private where id = \(me)) t
                """, logger: logger)
            return try await Self.decodeJSON([OwnerDetailsRow].self, from: rows, "ownerDetails").first?.details() ?? ProfileOwnerDetails()
        }
    }

    /// One transaction: the profile's changed columns (or a read-back when only owner-only fields
    /// change), then the owner-only ones. No row means missing or not the viewer's: `NOT_FOUND`.
    public func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile {
        guard viewer.userId == id else { throw DomainError.notProfileOwner }
        let profilePatch = try Self.json(ProfilePatch(changes: changes))
        let detailsPatch = try Self.json(OwnerDetailsPatch(changes: changes.ownerDetails))
        let updateProfile = try Self.updateStatement(
            table: "public.profiles", patch: profilePatch, types: Self.profileColumnTypes,
            returning: "select coalesce(json_agg(\(Self.profileObject("u"))), '[]')::text from updated u")
        let updateDetails = try Self.updateStatement(
            table: "public.profile_private", patch: detailsPatch, types: Self.ownerDetailColumnTypes,
            returning: "select count(*)::int from updated")
        return try await call("updateProfile", viewer: viewer, forbidden: .notProfileOwner) { connection, logger in
            var profile: Profile
            if changes.changesProfileRow, let updateProfile {
                let rows = try await connection.query(PostgresQuery(unsafeSQL: updateProfile, binds: Self.patchBinds(profilePatch, id)), logger: logger)
                guard let row = try await Self.decodeJSON([ProfileRow].self, from: rows, "updateProfile").first else {
                    throw DomainError.profileNotFound
                }
                profile = try row.profile()
            } else {
                // Unnamed, not ProfilesByIDStatement: a write's transaction keeps its connection on
                // failure, so it must not leave a failed preparation behind (PreparedStatements).
                var binds = PostgresBindings()
                binds.append([id])
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "select \(ProfileColumns.columns("p")) from public.profiles p where p.id = any($1::uuid[])", binds: binds),
                    logger: logger)
                var found: Profile?
                for try await row in rows { found = try ProfileColumns.profile(row.makeRandomAccess()) }
                guard let found else { throw DomainError.profileNotFound }
                profile = found
            }
            if !changes.ownerDetails.isEmpty, let updateDetails {
                let rows = try await connection.query(PostgresQuery(unsafeSQL: updateDetails, binds: Self.patchBinds(detailsPatch, id)), logger: logger)
                var updated = 0
                for try await count in rows.decode(Int.self) { updated = count }
                guard updated > 0 else { throw DomainError.profileNotFound }
            }
            return profile
        }
    }

    /// The SQL types of the columns a profile update may set (the `authenticated` role's column grants).
    static let profileColumnTypes: [String: String] = [
        "handle": "text", "display_name": "text", "bio": "text", "photo_url": "text", "home_gym": "text",
        "climbing_since": "date", "favorite_style": "text", "is_public": "boolean",
    ]
    static let ownerDetailColumnTypes: [String: String] = [
        "home_zip": "text", "preferred_grade_scale_boulder": "text", "preferred_grade_scale_route": "text",
    ]

    /// `with updated as (update <table> set <col> = ($1::jsonb ->> '<col>')::<type>, ... where id = $2
    /// returning *) <returning>` for the keys `patch` holds (a PostgREST PATCH body), or nil when it
    /// holds none. Column names come from `types` only, never from the patch's text.
    static func updateStatement(table: String, patch: String, types: [String: String], returning: String) throws -> String? {
        guard let object = try JSONSerialization.jsonObject(with: Data(patch.utf8)) as? [String: Any] else {
            throw MalformedRow("patch is not an object")
        }
        let assignments = try object.keys.sorted().map { key -> String in
            guard let type = types[key] else { throw MalformedRow("patch column \(key)") }
            return "\(key) = ($1::jsonb ->> '\(key)')::\(type)"
        }
        guard !assignments.isEmpty else { return nil }
        return "with updated as (update \(table) set \(assignments.joined(separator: ", ")) where id = $2::uuid returning *) \(returning)"
    }

    static func patchBinds(_ patch: String, _ id: UUID) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(patch)
        binds.append(id)
        return binds
    }
}
