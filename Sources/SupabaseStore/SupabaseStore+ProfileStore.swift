import Foundation
import SocialDomain
import SupabaseSchema

/// Profiles: `in.(...)` reads (one request per 200 keys), search through `search_profiles_ranked`,
/// and the owner's updates with `Prefer: return=representation`.
extension SupabaseStore: ProfileStore {
    /// Keys per `in.(...)` request: keeps URLs near 8 KB and far below the 1000-row cap.
    static let maxKeysPerRequest = 200

    /// `GET /rest/v1/profiles?select=<cols>&id=in.(<uuid>,...)`; RLS leaves out hidden rows.
    public func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile] {
        try await call("profilesByID") {
            var seen = Set<UUID>()
            let keys = ids.filter { seen.insert($0).inserted }.map(\.lowercased)
            var result: [UUID: Profile] = [:]
            for chunk in keys.chunked(Self.maxKeysPerRequest) {
                for profile in try await readProfiles(filter: ("id", PostgRESTQuery.inList(Array(chunk))), viewer: viewer) {
                    result[profile.id] = profile
                }
            }
            let missing = ids.filter { result[$0] == nil }
            if viewer.userId != nil, !missing.isEmpty {
                for card in try await profileCards(ids: missing.map(\.lowercased), handles: [], viewer: viewer) { result[card.id] = card }
            }
            return result
        }
    }

    /// `GET /rest/v1/profiles?select=<cols>&handle_lower=in.(<handle>,...)`, keyed lower-cased.
    public func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile] {
        try await call("profilesByHandle") {
            var seen = Set<String>()
            let keys = handles.map { $0.lowercased() }.filter { seen.insert($0).inserted }
            var result: [String: Profile] = [:]
            for chunk in keys.chunked(Self.maxKeysPerRequest) {
                let filter = ("handle_lower", PostgRESTQuery.inList(Array(chunk)))
                for profile in try await readProfiles(filter: filter, viewer: viewer) {
                    result[profile.handle.lowercased()] = profile
                }
            }
            let missing = keys.filter { result[$0] == nil }
            if viewer.userId != nil, !missing.isEmpty {
                for card in try await profileCards(ids: [], handles: missing, viewer: viewer) { result[card.handle.lowercased()] = card }
            }
            return result
        }
    }

    /// `POST /rest/v1/rpc/handle_available` (migration 20250301000700): a definer function, since
    /// RLS hides the private profiles that hold handles too; it answers `true` or `false` only.
    public func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool {
        try await call("handleTaken") {
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/handle_available",
                headers: [("Content-Type", "application/json")], body: try Self.json(["handle": handleKey]),
                idempotent: true, operation: "handleTaken")
            return try !decode(Bool.self, try await rest(request, viewer: viewer), "handleTaken")
        }
    }

    /// `POST /rest/v1/rpc/search_profiles_ranked?select=<cols>` with the escaped pattern, the
    /// lower-case query (which ranks a handle) and the keyset; `limit + 1` rows tell whether a
    /// next page exists.
    public func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage {
        try await call("searchProfiles") {
            let arguments = RankedSearchArguments(
                pattern: query.containsPattern, query_key: query.textKey, after_rank: query.after?.rank.rawValue,
                after_handle: query.after?.handleKey, after_id: query.after?.profileId.lowercased, page_size: query.rowsToFetch)
            let request = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/search_profiles_ranked",
                query: [("select", PostgRESTQuery.profileColumns)],
                headers: [("Content-Type", "application/json")], body: try Self.json(arguments),
                idempotent: true, operation: "searchProfiles")
            let rows = try decode([ProfileRow].self, try await rest(request, viewer: viewer), "searchProfiles")
            let profiles = try rows.map { try $0.profile() }
            return SearchPage.assemble(query: query, fetched: profiles)
        }
    }

    /// `GET /rest/v1/profile_private?select=<cols>&id=eq.<me>`: RLS returns the caller's own row
    /// only (migration 20250301001000); no row reads as empty details.
    public func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails {
        try await call("ownerDetails") {
            guard let me = viewer.userId else { return ProfileOwnerDetails() }
            let request = SupabaseRequest(
                method: .get, service: .rest, path: "/rest/v1/profile_private",
                query: [("select", OwnerDetailsRow.columns), ("id", "eq.\(me.lowercased)")],
                idempotent: true, operation: "ownerDetails")
            let rows = try decode([OwnerDetailsRow].self, try await rest(request, viewer: viewer), "ownerDetails")
            return try rows.first?.details() ?? ProfileOwnerDetails()
        }
    }

    /// `PATCH /rest/v1/profiles?id=eq.<id>&select=<cols>` with only the changed columns, then,
    /// when owner-only fields change, `PATCH /rest/v1/profile_private?id=eq.<id>`; with only
    /// owner-only changes the profile is read back instead of patched. The profile goes first:
    /// its handle is what can be refused, and the second request is idempotent if a client
    /// retries after it failed. An empty answer means the row is missing or hidden: `NOT_FOUND`.
    public func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile {
        try await call("updateProfile") {
            guard viewer.userId == id else { throw DomainError.notProfileOwner }
            var profile: Profile
            if changes.changesProfileRow {
                let request = SupabaseRequest(
                    method: .patch, service: .rest, path: "/rest/v1/profiles",
                    query: [("id", "eq.\(id.lowercased)"), ("select", PostgRESTQuery.profileColumns)],
                    headers: [("Content-Type", "application/json"), ("Prefer", "return=representation")],
                    body: try Self.json(ProfilePatch(changes: changes)),
                    idempotent: false, operation: "updateProfile")
                let data = try await rest(request, viewer: viewer, forbidden: .notProfileOwner)
                guard let row = try decode([ProfileRow].self, data, "updateProfile").first else {
                    throw DomainError.profileNotFound
                }
                profile = try row.profile()
            } else {
                guard let current = try await readProfiles(filter: ("id", PostgRESTQuery.inList([id.lowercased])), viewer: viewer).first else {
                    throw DomainError.profileNotFound
                }
                profile = current
            }
            if !changes.ownerDetails.isEmpty {
                let request = SupabaseRequest(
                    method: .patch, service: .rest, path: "/rest/v1/profile_private",
                    query: [("id", "eq.\(id.lowercased)"), ("select", "id")],
                    headers: [("Content-Type", "application/json"), ("Prefer", "return=representation")],
                    body: try Self.json(OwnerDetailsPatch(changes: changes.ownerDetails)),
                    idempotent: true, operation: "updateOwnerDetails")
                let data = try await rest(request, viewer: viewer, forbidden: .notProfileOwner)
                guard try !decode([IdRow].self, data, "updateOwnerDetails").isEmpty else {
                    throw DomainError.profileNotFound
                }
            }
            return profile
        }
    }

    /// `POST /rest/v1/rpc/profile_cards` with `{"ids": [...], "handles": [...]}` (migration
    /// 20250301002300): the cards of the private profiles among them that RLS hid from a
    /// signed-in viewer (``ProfileAccess/card``).
    func profileCards(ids: [String], handles: [String], viewer: Viewer) async throws -> [Profile] {
        let request = SupabaseRequest(
            method: .post, service: .rest, path: "/rest/v1/rpc/profile_cards",
            headers: [("Content-Type", "application/json")], body: try Self.json(["ids": ids, "handles": handles]),
            idempotent: true, operation: "profileCards")
        return try decode([ProfileRow].self, try await rest(request, viewer: viewer), "profileCards").map { try $0.profile() }
    }

    func readProfiles(filter: (String, String), viewer: Viewer) async throws -> [Profile] {
        let request = SupabaseRequest(
            method: .get, service: .rest, path: "/rest/v1/profiles",
            query: [("select", PostgRESTQuery.profileColumns), filter],
            idempotent: true, operation: "profiles")
        return try decode([ProfileRow].self, try await rest(request, viewer: viewer), "profiles").map { try $0.profile() }
    }
}


extension Array {
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
