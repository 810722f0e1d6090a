import Foundation
import SocialDomain
import Testing

/// The decision of issue 52, as its table states it (`SocialRules`' doc comment, docs/DESIGN.md):
/// each row checked against the rule's one definition.
@Suite("Who sees what (issue 52): the rule table")
struct SocialRulesTests {
    static let viewer = UUID(uuidString: "a0000000-0000-4000-8000-000000000001")!
    static let profile = UUID(uuidString: "b0000000-0000-4000-8000-000000000002")!
    static let signedIn = Viewer.user(id: viewer, token: "t")

    static func access(_ viewer: Viewer = signedIn, isPublic: Bool, follows: Bool = false, blocked: Bool = false) -> ProfileAccess? {
        SocialRules.access(VisibilityFacts(viewer: viewer, profileId: profile, isPublic: isPublic, viewerFollows: follows, blocked: blocked))
    }

    @Test("rule 1: the access table, row by row")
    func accessTable() {
        // P itself: whole, public or private.
        #expect(SocialRules.access(VisibilityFacts(viewer: Self.signedIn, profileId: Self.viewer, isPublic: false)) == .full)
        // A block either way: absent, public or private, followed or not.
        #expect(Self.access(isPublic: true, blocked: true) == nil)
        #expect(Self.access(isPublic: false, follows: true, blocked: true) == nil)
        // Public: whole, to anyone.
        #expect(Self.access(.anonymous, isPublic: true) == .full)
        #expect(Self.access(isPublic: true) == .full)
        // Private: whole to an active follower, a card to any other signed-in viewer, absent to anonymous.
        #expect(Self.access(isPublic: false, follows: true) == .full)
        #expect(Self.access(isPublic: false) == .card)
        #expect(Self.access(.anonymous, isPublic: false) == nil)
        // An anonymous viewer follows and blocks nobody, whatever a caller passes.
        #expect(Self.access(.anonymous, isPublic: false, follows: true) == nil)
        #expect(Self.access(.anonymous, isPublic: true, blocked: true) == .full)
    }

    @Test("rule 2: an edge shows only between two profiles the viewer sees whole")
    func edgeRule() {
        #expect(SocialRules.showsEdge(.full, .full))
        #expect(!SocialRules.showsEdge(.full, .card))
        #expect(!SocialRules.showsEdge(.card, .full))
        #expect(!SocialRules.showsEdge(nil, .full))
        // followsViewer of a private profile seen as a card is false, though it follows the viewer.
        #expect(!SocialRules.followsViewer(profileFollowsViewer: true, access: .card))
        #expect(SocialRules.followsViewer(profileFollowsViewer: true, access: .full))
        #expect(!SocialRules.followsViewer(profileFollowsViewer: false, access: .full))
        #expect(SocialRules.viewerIsFollowing(viewerFollowsProfile: true, access: .full))
        #expect(!SocialRules.viewerIsFollowing(viewerFollowsProfile: true, access: nil))
    }

    @Test("rule 2: lists under a card are empty and counted 0; under a whole profile counted by the stored counter")
    func lists() {
        #expect(SocialRules.listTotal(storedCount: 7, access: .full) == 7)
        #expect(SocialRules.listTotal(storedCount: 7, access: .card) == 0)
        #expect(SocialRules.listTotal(storedCount: 7, access: nil) == 0)
        #expect(!SocialRules.showsLists(of: .card))
    }

    @Test("rule 2: an activity reaches a viewer who sees its actor and its subject, never one who sees only a card")
    func activity() {
        #expect(SocialRules.showsActivity(actor: .full, subject: .full))
        #expect(!SocialRules.showsActivity(actor: .card, subject: .full))
        #expect(!SocialRules.showsActivity(actor: .full, subject: .card))
        #expect(!SocialRules.showsActivity(actor: nil, subject: .full))
    }

    @Test("suggestions and search: public, not across a block; suggestions also not oneself, followed or asked")
    func suggestionsAndSearch() {
        func facts(isPublic: Bool = true, isSelf: Bool = false, follows: Bool = false, blocked: Bool = false) -> VisibilityFacts {
            VisibilityFacts(
                viewer: Self.signedIn, profileId: isSelf ? Self.viewer : Self.profile, isPublic: isPublic, viewerFollows: follows,
                blocked: blocked)
        }
        #expect(SocialRules.isSuggestible(facts(), requested: false))
        #expect(!SocialRules.isSuggestible(facts(), requested: true))
        #expect(!SocialRules.isSuggestible(facts(isPublic: false), requested: false))
        #expect(!SocialRules.isSuggestible(facts(isSelf: true), requested: false))
        #expect(!SocialRules.isSuggestible(facts(follows: true), requested: false))
        #expect(!SocialRules.isSuggestible(facts(blocked: true), requested: false))
        #expect(SocialRules.isSearchable(facts()))
        #expect(!SocialRules.isSearchable(facts(isPublic: false, follows: true)))
        #expect(!SocialRules.isSearchable(facts(blocked: true)))
    }

    @Test("ProfileAccess.of is the rule, for every possible combination of facts")
    func profileAccessIsTheRule() {
        let facts = VisibilityFacts.allPossible
        #expect(facts.count == 10)
        for fact in facts {
            let viewer: Viewer = fact.viewerIsSignedIn ? Self.signedIn : .anonymous
            let id = fact.viewerIsProfile ? Self.viewer : Self.profile
            #expect(ProfileAccess.of(profileId: id, isPublic: fact.profileIsPublic, viewer: viewer,
                                     viewerFollows: fact.viewerFollowsProfile, blocked: fact.blockedEitherWay) == SocialRules.access(fact),
                    "\(fact)")
        }
    }

    @Test("a condition renders with every operand parenthesised, each fact spelled by the caller")
    func rendering() {
        let text = SocialRules.sees.render { "\($0.rawValue)" }
        #expect(text == "((viewerIsProfile) OR ((NOT (blockedEitherWay)) AND ((profileIsPublic) OR (viewerFollowsProfile))))")
        #expect(VisibilityCondition.all([]).render { $0.rawValue } == "(1 = 1)")
        #expect(VisibilityCondition.any([]).render { $0.rawValue } == "(1 = 0)")
    }
}
