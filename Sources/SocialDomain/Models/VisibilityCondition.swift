import Foundation

/// One fact about a (viewer, profile) pair that the visibility rule reads (``SocialRules``).
///
/// A store that decides in SQL spells each fact as a condition of its own (a column, an index
/// probe) and renders ``SocialRules/sees`` and ``SocialRules/seesCard`` from them, so the rule's
/// shape is written once, here, and a Swift caller evaluates the very same shape with
/// ``VisibilityFacts``.
public enum VisibilityFact: String, Sendable, Hashable, CaseIterable {
    /// The viewer is signed in (not anonymous).
    case viewerIsSignedIn
    /// The viewer is the profile's owner.
    case viewerIsProfile
    /// The profile is public.
    case profileIsPublic
    /// The viewer has an active follow of the profile (a `follows` row, not soft-deleted; a
    /// pending request is not a follow).
    case viewerFollowsProfile
    /// The viewer blocks the profile or the profile blocks the viewer.
    case blockedEitherWay
}

/// A condition over ``VisibilityFact``s: the rule of ``SocialRules`` as data, so that Swift
/// evaluates it (``holds(_:)``) and a store renders it as SQL (``render(fact:not:all:any:)``)
/// from one definition.
///
/// ```swift
/// SocialRules.sees.holds(VisibilityFacts(viewer: alice, profileId: bob, isPublic: false, viewerFollows: true))  // true
/// ```
public indirect enum VisibilityCondition: Sendable, Hashable {
    case fact(VisibilityFact)
    case not(VisibilityCondition)
    /// Every condition holds (true when empty).
    case all([VisibilityCondition])
    /// At least one condition holds (false when empty).
    case any([VisibilityCondition])

    /// Whether the condition holds for these facts.
    public func holds(_ facts: VisibilityFacts) -> Bool {
        switch self {
        case .fact(let fact): facts[fact]
        case .not(let condition): !condition.holds(facts)
        case .all(let conditions): conditions.allSatisfy { $0.holds(facts) }
        case .any(let conditions): conditions.contains { $0.holds(facts) }
        }
    }

    /// The condition as text in a language with the usual boolean operators (SQL), each fact
    /// spelled by `fact`. Every operand is parenthesised, so the result needs no precedence rules.
    ///
    /// ```swift
    /// SocialRules.sees.render { fact in ... }   // "((v.viewer_id IS p.id) OR ((NOT (...)) AND ...))"
    /// ```
    public func render(
        fact spell: (VisibilityFact) -> String, not: String = "NOT", all: String = "AND", any: String = "OR"
    ) -> String {
        func text(_ condition: VisibilityCondition) -> String {
            switch condition {
            case .fact(let fact): "(\(spell(fact)))"
            case .not(let inner): "(\(not) \(text(inner)))"
            case .all(let parts): parts.isEmpty ? "(1 = 1)" : "(" + parts.map(text).joined(separator: " \(all) ") + ")"
            case .any(let parts): parts.isEmpty ? "(1 = 0)" : "(" + parts.map(text).joined(separator: " \(any) ") + ")"
            }
        }
        return text(self)
    }
}

/// The facts ``VisibilityCondition`` reads, for one viewer and one profile.
public struct VisibilityFacts: Sendable, Hashable {
    public var viewerIsSignedIn: Bool
    public var viewerIsProfile: Bool
    public var profileIsPublic: Bool
    public var viewerFollowsProfile: Bool
    public var blockedEitherWay: Bool

    public init(
        viewerIsSignedIn: Bool, viewerIsProfile: Bool, profileIsPublic: Bool, viewerFollowsProfile: Bool, blockedEitherWay: Bool
    ) {
        self.viewerIsSignedIn = viewerIsSignedIn
        self.viewerIsProfile = viewerIsProfile
        self.profileIsPublic = profileIsPublic
        self.viewerFollowsProfile = viewerFollowsProfile
        self.blockedEitherWay = blockedEitherWay
    }

    /// The facts of `viewer` and the profile `profileId`. An anonymous viewer follows and blocks
    /// nobody, whatever is passed.
    /// - Parameters:
    ///   - viewerFollows: the viewer has an active follow of the profile.
    ///   - blocked: either blocks the other.
    public init(viewer: Viewer, profileId: UUID, isPublic: Bool, viewerFollows: Bool = false, blocked: Bool = false) {
        self.init(viewerId: viewer.userId, profileId: profileId, isPublic: isPublic, viewerFollows: viewerFollows, blocked: blocked)
    }

    /// The same facts for the viewer with id `viewerId` (nil: anonymous), where only the id is at hand.
    public init(viewerId: UUID?, profileId: UUID, isPublic: Bool, viewerFollows: Bool = false, blocked: Bool = false) {
        let signedIn = viewerId != nil
        self.init(
            viewerIsSignedIn: signedIn, viewerIsProfile: viewerId == profileId, profileIsPublic: isPublic,
            viewerFollowsProfile: signedIn && viewerFollows, blockedEitherWay: signedIn && blocked)
    }

    public subscript(fact: VisibilityFact) -> Bool {
        switch fact {
        case .viewerIsSignedIn: viewerIsSignedIn
        case .viewerIsProfile: viewerIsProfile
        case .profileIsPublic: profileIsPublic
        case .viewerFollowsProfile: viewerFollowsProfile
        case .blockedEitherWay: blockedEitherWay
        }
    }

    /// Whether a real viewer and profile can have these facts: an anonymous viewer owns,
    /// follows and blocks nobody, nobody follows or blocks themselves, and a block removes the
    /// follows between the two (and none can be made across it).
    public var isPossible: Bool {
        if !viewerIsSignedIn { return !viewerIsProfile && !viewerFollowsProfile && !blockedEitherWay }
        return !(viewerIsProfile && (viewerFollowsProfile || blockedEitherWay)) && !(viewerFollowsProfile && blockedEitherWay)
    }

    /// Every possible combination of the facts (``isPossible``), for tests that check a
    /// rendering of a condition against ``VisibilityCondition/holds(_:)``.
    public static var allPossible: [VisibilityFacts] {
        var all: [VisibilityFacts] = []
        for bits in 0..<32 {
            func bit(_ n: Int) -> Bool { (bits >> n) & 1 == 1 }
            let facts = VisibilityFacts(
                viewerIsSignedIn: bit(0), viewerIsProfile: bit(1), profileIsPublic: bit(2), viewerFollowsProfile: bit(3),
                blockedEitherWay: bit(4))
            if facts.isPossible { all.append(facts) }
        }
        return all
    }
}
