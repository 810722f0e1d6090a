import Foundation

/// Profiles in a backend, batch-shaped: every read takes many keys, because the gateway's
/// loaders call it once per query level, not once per node.
///
/// Visibility is the store's job too (the embedded store emulates row-level security by
/// `viewer`; Supabase enforces it with the forwarded token): private profiles only reach their
/// owner. Errors are ``DomainError``s; anything else is treated as `BACKEND_UNAVAILABLE`.
///
/// ```swift
/// let byId = try await store.profiles(ids: ids, viewer: viewer)   // [UUID: Profile]
/// ```
public protocol ProfileStore: Sendable {
    /// The visible profiles among `ids`; missing and hidden ones are absent from the result.
    func profiles(ids: [UUID], viewer: Viewer) async throws -> [UUID: Profile]

    /// The visible profiles among `handles`, keyed by the lower-cased handle.
    func profiles(handles: [String], viewer: Viewer) async throws -> [String: Profile]

    /// Whether a profile other than the viewer's holds `handleKey` (a lower-cased, valid handle),
    /// private profiles included. Says nothing else about that profile.
    func isHandleTaken(_ handleKey: String, viewer: Viewer) async throws -> Bool

    /// One page of search results (public profiles only), see ``SearchQuery``.
    func searchProfiles(_ query: SearchQuery, viewer: Viewer) async throws -> SearchPage

    /// The owner-only fields of the viewer's own profile (``ProfileOwnerDetails``): empty details
    /// when none are stored, and for an anonymous viewer. Never anyone else's: the store reads
    /// them as the viewer, and only the owner may.
    func ownerDetails(viewer: Viewer) async throws -> ProfileOwnerDetails

    /// Applies validated changes to the viewer's own profile (its owner-only fields included)
    /// and returns it. `updatedAt` moves only when ``ProfileChanges/changesProfileRow``.
    /// - Throws: `NOT_FOUND` (no such profile), `FORBIDDEN` (not the viewer's),
    ///   `HANDLE_TAKEN` (another profile has the handle, in any case).
    func updateProfile(id: UUID, changes: ProfileChanges, viewer: Viewer) async throws -> Profile
}
