import Foundation

/// Who sees what (issue 52): one rule for profiles and one for edges, everything else follows
/// from them. Every store, the gateway, the cache and subscription delivery give these answers;
/// the store conformance suite (`Tests/StoreConformance`) computes its expectations from these
/// functions and checks every store against them.
///
/// Terms: V the viewer (anonymous, or signed in), P the profile looked at. An *active follow*
/// A→B is a `follows` row not soft-deleted (a pending request is not a follow). *blocked(V, P)*:
/// either blocks the other (a block removes the follows and requests between them both ways).
///
/// **Rule 1, the profile.** ``sees``: V = P; otherwise not blocked and (P public, or V actively
/// follows P); anonymous V sees public profiles. ``access(_:)``: `full` when V sees P; `card`
/// when V is signed in, P is private and not blocked; otherwise none (P is absent: null,
/// `NOT_FOUND`).
///
/// | P        | V                                          | access           |
/// |----------|--------------------------------------------|------------------|
/// | any      | P itself                                   | full             |
/// | any      | blocks P, or is blocked by P               | none (NOT_FOUND) |
/// | public   | anyone else, anonymous included            | full             |
/// | private  | an active follower (an approved request)   | full             |
/// | private  | any other signed-in viewer: a stranger, a requester, one declined, one P follows | card |
/// | private  | anonymous                                  | none (null)      |
///
/// `full` shows every field but the owner-only ones (only V = P reads those). A `card` shows id,
/// handle, displayName, avatarURL, isPublic, the counters, createdAt, updatedAt and the viewer's
/// relation (viewerIsFollowing, followsViewer, viewerCanSeeDetails false,
/// viewerFollowRequestStatus); bio, homeGym, climbingSince and favoriteStyle are null and every
/// list under it is empty with totalCount 0.
///
/// **Rule 2, the edge.** An edge A→B (a follow, and anything an edge stands for: a like, a
/// comment, an activity) is visible to V iff V sees A and V sees B (``showsEdge(_:_:)``). V sees
/// itself; there is no other exception for V's own edges. Its consequences:
///
/// | answer | for V on P |
/// |--------|------------|
/// | `followsViewer` | P actively follows V and V sees P (a private P that follows a V who sees only its card: false) |
/// | `viewerIsFollowing` | V actively follows P (then V sees P); false for anonymous V and for V = P |
/// | `viewerFollowRequestStatus` | PENDING while V's own request to P is pending; NONE otherwise (a decline reads NONE; asking again within ``FollowRequestRules/askAgainAfterDecline`` is TOO_MANY_REQUESTS) |
/// | `followers`, `following` | UNAUTHENTICATED for anonymous V; empty, totalCount 0, unless V sees P; else the profiles L with an active edge that V sees, totalCount P's stored counter (``listTotal(storedCount:access:)``) |
/// | `followedByViewerFollowing` | empty, totalCount 0, for anonymous V, V = P, or unless V sees P; else the X with active V→X and X→P that V sees, X ≠ V, X ≠ P, all counted |
/// | `suggestedProfiles` | public profiles two follows away, through profiles V follows (V sees them: a follow and its edge to a public profile both show); for a V who follows nobody yet, the most followed public profiles (issue 54); either way not V, not followed, not requested, not blocked either way (``isSuggestible(_:requested:)``) |
/// | `searchProfiles` | public profiles, never across a block (``isSearchable(_:)``) |
/// | posts, stories of A | visible iff V sees A (stories: signed-in V only) |
/// | a like or comment by C on A's post | visible iff V sees A and V sees C (`Post.likers`: a hidden like is counted in likeCount, never named) |
/// | an activity (actor C, subject S, post by A) | reaches V iff V sees C, and S and A if any (``showsActivity(actor:subject:)``) |
/// | counts (followerCount, followingCount, postCount, likeCount, commentCount) | the stored counters, for every viewer who may see the card: hidden rows show only as a number, never who |
///
/// ```swift
/// let access = SocialRules.access(VisibilityFacts(viewer: alice, profileId: bob, isPublic: false))  // .card
/// let flag = SocialRules.followsViewer(profileFollowsViewer: true, access: access)                   // false
/// ```
public enum SocialRules {
    // MARK: Rule 1, the profile

    /// "V sees P whole": V = P, or not blocked and (P public or V actively follows P).
    public static let sees: VisibilityCondition = .any([
        .fact(.viewerIsProfile),
        .all([.not(.fact(.blockedEitherWay)), .any([.fact(.profileIsPublic), .fact(.viewerFollowsProfile)])]),
    ])

    /// What a viewer who does not see P whole needs to see its card: signed in, and no block.
    /// (``access(_:)`` asks it only when ``sees`` does not hold, so P is then private.)
    public static let seesCard: VisibilityCondition = .all([.fact(.viewerIsSignedIn), .not(.fact(.blockedEitherWay))])

    /// How much of P the viewer sees: `full`, `card`, or nil (P is absent).
    public static func access(_ facts: VisibilityFacts) -> ProfileAccess? {
        if sees.holds(facts) { return .full }
        return seesCard.holds(facts) ? .card : nil
    }

    /// Whether a viewer with this access to a profile sees it whole: the "sees(V, P)" of every
    /// rule below, for callers that hold a profile a store already decided on.
    public static func sees(_ access: ProfileAccess?) -> Bool { access == .full }

    // MARK: Rule 2, the edge

    /// An edge between two profiles shows to V iff V sees both.
    public static func showsEdge(_ follower: ProfileAccess?, _ followee: ProfileAccess?) -> Bool {
        sees(follower) && sees(followee)
    }

    /// `followsViewer` on P: P actively follows V and V sees P.
    public static func followsViewer(profileFollowsViewer: Bool, access: ProfileAccess?) -> Bool {
        profileFollowsViewer && sees(access)
    }

    /// `viewerIsFollowing` on P: V actively follows P (the edge V→P, which V sees when V sees P;
    /// a block removes the follow).
    public static func viewerIsFollowing(viewerFollowsProfile: Bool, access: ProfileAccess?) -> Bool {
        viewerFollowsProfile && sees(access)
    }

    /// Whether P's follower and following lists (and everything else under P: posts,
    /// `followedByViewerFollowing`) show anything to V: only when V sees P. Anonymous V is
    /// refused the follow lists before this (UNAUTHENTICATED).
    public static func showsLists(of access: ProfileAccess?) -> Bool { sees(access) }

    /// The `totalCount` of P's follower or following list for V: P's stored counter when V sees
    /// P (it then equals `followerCount`/`followingCount`, which every viewer of the card reads
    /// anyway), 0 when the list is behind P's card.
    public static func listTotal(storedCount: Int, access: ProfileAccess?) -> Int {
        showsLists(of: access) ? storedCount : 0
    }

    /// Whether an activity reaches V: V sees its actor and its subject (for a like, a comment or
    /// a post the subject is the post's author, ``Activity/subject``). A viewer who sees only a
    /// card of the actor receives nothing of the actor's activity.
    public static func showsActivity(actor: ProfileAccess?, subject: ProfileAccess?) -> Bool {
        sees(actor) && sees(subject)
    }

    /// Whether a notification of `kind` by an actor the viewer has this access to reaches the
    /// viewer (issue 54: stored and live alike). Like any activity, only from an actor the viewer
    /// sees whole (``showsActivity(actor:subject:)``; the subject is the viewer) — except a follow
    /// request, which is addressed to the viewer: its requester's card is enough, as in
    /// `followRequests`. Nothing across a block (the actor is then absent).
    public static func showsNotification(_ kind: Activity.Kind, actor: ProfileAccess?) -> Bool {
        kind == .followRequested ? actor != nil : sees(actor)
    }

    // MARK: Lists that are not edges of P

    /// Whether a profile may be suggested to a signed-in V (besides being reached through a
    /// public profile V follows): public, not V, not followed by V, not asked by V, no block.
    public static func isSuggestible(_ candidate: VisibilityFacts, requested: Bool) -> Bool {
        candidate.viewerIsSignedIn && candidate.profileIsPublic && !candidate.viewerIsProfile
            && !candidate.viewerFollowsProfile && !requested && !candidate.blockedEitherWay
    }

    /// Whether a profile may appear in V's search results: public, and no block either way.
    public static func isSearchable(_ candidate: VisibilityFacts) -> Bool {
        candidate.profileIsPublic && !candidate.blockedEitherWay
    }
}
