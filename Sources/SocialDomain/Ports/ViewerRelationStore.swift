import Foundation

/// What a signed-in viewer's view of one profile depends on, as the store decides it: whether
/// the viewer sees it (and how much, by the store's own visibility rule), the follows between
/// the two, and what could make the profile's lists look different to this viewer.
///
/// A list shows a listed profile to a viewer when it is public, or is the viewer, or is private
/// and followed by the viewer, and not when a block stands between them (``ProfileAccess``). So
/// two viewers with the same relation to a profile, neither of them that profile, and both with
/// ``listsAreCommon``, see the same card: the same fields (``access``), the same follow flags,
/// and the same lists under it (its public listed profiles). The gateway shares such answers
/// between them (`GatewayService`'s shared cards, issue 41); this type only carries the facts.
/// The rule itself stays in the store.
public struct ViewerRelation: Sendable, Hashable {
    /// The profile the key named.
    public var profileId: UUID
    /// How much of it the viewer may see (the store's rule; never nil here: a hidden or missing
    /// profile has no relation).
    public var access: ProfileAccess
    /// The viewer has an active follow of the profile.
    public var viewerFollows: Bool
    /// The profile has an active follow of the viewer that the viewer may see: false when the
    /// viewer sees only the profile's card (``SocialRules/followsViewer(profileFollowsViewer:access:)``).
    public var followsViewer: Bool
    /// The viewer blocks someone, or someone blocks the viewer.
    public var viewerHasBlocks: Bool
    /// The viewer's own profile is private (the profile's lists show it to itself, not to
    /// everyone, when it is in them: ``viewerFollows`` or ``followsViewer``).
    public var viewerIsPrivate: Bool
    /// The viewer actively follows a private profile, other than this one, that follows this
    /// profile or that this profile follows: its lists show that one to the viewer, not to
    /// everyone.
    public var viewerFollowsPrivateListed: Bool

    public init(
        profileId: UUID, access: ProfileAccess, viewerFollows: Bool, followsViewer: Bool, viewerHasBlocks: Bool,
        viewerIsPrivate: Bool, viewerFollowsPrivateListed: Bool
    ) {
        self.profileId = profileId
        self.access = access
        self.viewerFollows = viewerFollows
        self.followsViewer = followsViewer
        self.viewerHasBlocks = viewerHasBlocks
        self.viewerIsPrivate = viewerIsPrivate
        self.viewerFollowsPrivateListed = viewerFollowsPrivateListed
    }

    /// Whether the profile's follower and following lists show this viewer exactly what they
    /// show every other viewer for whom this holds: their public profiles. False with a block
    /// (it hides profiles from this viewer), or when a private profile is in them that this
    /// viewer sees and others may not: the viewer's own, or one it follows.
    public var listsAreCommon: Bool {
        !viewerHasBlocks && !(viewerIsPrivate && (viewerFollows || followsViewer)) && !viewerFollowsPrivateListed
    }
}

/// A signed-in viewer's relation to one profile, in one read (``ViewerRelation``).
///
/// Optional for a backend: without it the gateway keeps every signed-in answer per viewer.
///
/// ```swift
/// let relation = try await store.viewerRelation(to: .handle("bob"), viewer: alice)
/// ```
public protocol ViewerRelationStore: Sendable {
    /// The viewer's relation to the profile `key` names (a handle key is lower-cased and valid,
    /// ``BatchGetProfiles/handleKey(_:)``); nil for an anonymous viewer, and when no profile
    /// has the key or it is hidden from the viewer.
    func viewerRelation(to key: ProfileKey, viewer: Viewer) async throws -> ViewerRelation?
}
