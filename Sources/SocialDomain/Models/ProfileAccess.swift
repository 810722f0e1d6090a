import Foundation

/// How much of a profile a viewer sees: the answer of ``SocialRules/access(_:)`` (Rule 1 of the
/// rule table there). A profile hidden altogether has no access (nil).
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

    /// ``SocialRules/access(_:)`` for these facts. `viewerFollows`: whether the viewer has an
    /// active follow of the profile (an approved request, or a follow from before the profile
    /// turned private); `blocked`: whether either blocks the other.
    /// - Returns: nil when the profile is hidden from the viewer altogether.
    public static func of(
        profileId: UUID, isPublic: Bool, viewer: Viewer, viewerFollows: Bool, blocked: Bool = false
    ) -> ProfileAccess? {
        SocialRules.access(
            VisibilityFacts(viewer: viewer, profileId: profileId, isPublic: isPublic, viewerFollows: viewerFollows, blocked: blocked))
    }
}
