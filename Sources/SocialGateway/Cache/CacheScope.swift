/// Who an answer is valid for: everyone, one viewer, or the viewers with one relation to a profile.
///
/// The scope is part of every ``CacheKey``, so an answer computed for one viewer can only ever be
/// found again by that viewer. Answers whose resolvers read the viewer (their own timeline,
/// `viewer { ... }`, row-level-security filtered lists) must use ``viewer(_:)``; only answers that
/// are identical for every caller, including anonymous ones, may use ``shared``.
///
/// ```swift
/// let scope: CacheScope = policy.isPrivate ? .viewer(userID) : .shared
/// ```
public enum CacheScope: Sendable, Hashable {
    /// The answer does not depend on who asks ("PUBLIC").
    case shared
    /// The answer is private to the viewer with this id.
    case viewer(String)
    /// The answer is for every signed-in viewer with this relation to the one profile it shows
    /// (``SharedCardShape``, ``GatewayService``'s shared answers): the profile's id and the facts
    /// of ``SocialDomain/ViewerRelation`` that change the answer.
    case relation(String)

    /// The scope as it enters the key digest. A viewer named "PUBLIC" still differs from
    /// ``shared`` because viewer scopes carry a prefix.
    var keyComponent: String {
        switch self {
        case .shared: "PUBLIC"
        case .viewer(let id): "viewer:" + id
        case .relation(let facts): "relation:" + facts
        }
    }
}
