import Foundation

/// How much of a profile a viewer may see: the one visibility rule of the domain, which every
/// store (the embedded store's SQL, the SupabaseFake, the PostgreSQL policies) applies.
///
/// | profile  | viewer                               | access          |
/// |----------|--------------------------------------|-----------------|
/// | public   | anyone                               | ``full``        |
/// | private  | its owner, or an approved follower   | ``full``        |
/// | private  | any other signed-in viewer           | ``card``        |
/// | private  | anonymous                            | none: NOT_FOUND |
/// | any      | a viewer it blocks, or who blocks it | none: NOT_FOUND |
///
/// A card is what a stranger needs to ask to follow: id, handle, display name, avatar, counts,
/// `isPublic` and their own request's status. Everything behind it (bio, home gym, climbing
/// since, favourite style, posts, stories, comments, likes, follower lists) stays hidden.
///
/// ```swift
/// ProfileAccess.of(profileId: bob, isPublic: false, viewer: alice, viewerFollows: false)  // .card
/// ```
public enum ProfileAccess: String, Sendable, Hashable {
    /// The whole profile and everything it owns.
    case full
    /// Only the card; lists and content behind it are empty for this viewer.
    case card

    /// The rule. `viewerFollows`: whether the viewer has an active follow of the profile (an
    /// approved request, or a follow from before the profile turned private); `blocked`: whether
    /// either blocks the other.
    /// - Returns: nil when the profile is hidden from the viewer altogether.
    public static func of(
        profileId: UUID, isPublic: Bool, viewer: Viewer, viewerFollows: Bool, blocked: Bool = false
    ) -> ProfileAccess? {
        if viewer.userId == profileId { return .full }
        if blocked { return nil }
        if isPublic || viewerFollows { return .full }
        return viewer.userId == nil ? nil : .card
    }
}
