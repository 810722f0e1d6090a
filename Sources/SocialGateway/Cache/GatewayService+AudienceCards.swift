import Foundation
import GraphQLEngine
import GraphQLLanguage
import SocialDomain

extension GatewayService {
    /// The shared place of a signed-in viewer's card when graph memory keeps its data (issue 53,
    /// the second design: an answer per audience class), or nil to keep it per viewer.
    ///
    /// Why: with a million viewer and profile pairs nearly every card was executed for its one
    /// viewer, although most viewers see exactly the same card (99.4% of random requests could
    /// share on the load test's graph: `scripts/audience-share`). The audience class of a card is
    /// *what the viewer sees* of it, read from memory by the reads the resolvers use, under one
    /// lock (``MemoryReads/readyCardView(_:viewer:pages:)``, which applies ``SocialRules`` per
    /// viewer): the profile's access, the follows between the two, and for every
    /// `followers`/`following` page the document reads, the rows the viewer's page holds and its
    /// flags. ``SharedCardShape`` admits only fields whose values follow from those (the
    /// profile's fields by access, the listed profiles' card fields, which are alike for every
    /// viewer who may list them), so two viewers with the same class get the same bytes, and no
    /// rule is written here: the class is the rule's output, not a copy of it. Measured, it
    /// shares 90-95% of random viewers' cards, and such a hit costs about what executing the card
    /// against memory did (docs/performance/2026-12-02-audience-cards.md).
    ///
    /// Unlike the relation-keyed cards (``sharedCardLookup(_:operation:request:)`` without memory),
    /// a viewer with a block or a private follow still shares whenever those do not touch the
    /// rows of the pages asked for (a card's first page of followers), which is most viewers.
    ///
    /// Read-your-writes and races: the token is taken before memory is read, and the answer is
    /// stored only if none of the tags its execution read (the profile, each listed profile, the
    /// lists) nor the viewer's own profile was invalidated since. Memory applies a write before
    /// the cache invalidates it, so a viewer's next request after their write reads the new
    /// rows, and so a new class.
    ///
    /// Nil (the per-viewer path) when memory cannot answer a read the class needs (it fills
    /// what it lacks first), for the profile's owner, a hidden or missing profile, and page
    /// arguments the domain refuses (the execution reports them).
    func audienceCardLookup(
        _ prepared: PreparedDocument, operation: OperationDefinition, request: GatewayRequest, reads: MemoryReads
    ) async -> SharedCardLookup? {
        let name = operation.name?.value
        let viewer = request.viewer
        guard let me = viewer.userId, let shape = prepared.sharedCards[name], let printed = prepared.printed,
              let policy = prepared.queryPolicies[name], policy.maxAge > 0,
              let profileKey = shape.profileKey(variables: request.variables)
        else { return nil }
        let token = options.cache.beginComputation()
        // One read under memory's lock, filling what memory lacks first (a viewer's first request
        // shares too); a store failure leaves the request to the execution, which reports it.
        // Rounds: the viewer's facts, the profile, its lists, their rows' profiles.
        let read = try? await reads.answer(rounds: 5) {
            reads.readyCardView(profileKey, viewer: viewer) { owner in
                var requests: [FollowPageRequest] = []
                for list in shape.lists {
                    guard let page = Self.pageRequest(list, of: owner, variables: request.variables, viewer: viewer) else { return nil }
                    requests.append(page)
                }
                return requests
            }
        }
        guard let view = read ?? nil, view.profile.id != me else { return nil }
        let profile = view.profile
        var facts = Self.relationFacts(
            profile: profile.id, access: profile.access, follows: view.state.viewerIsFollowing, followed: view.state.followsViewer)
        for (list, page) in zip(shape.lists, view.pages) {
            // A list behind the profile's card is empty for every viewer with this access.
            guard let rows = page else { continue }
            facts += "|\(list.kind == .followers ? "r" : "g")\(rows.hasNextPage ? "n" : "-")\(rows.hasPreviousPage ? "p" : "-")"
            facts += "\(rows.totalCount)"
            for edge in rows.edges { facts += "," + edge.profile.id.lowercased }
        }
        return sharedCard(facts: facts, profile: profile.id, viewer: me, printed: printed, policy: policy, request: request, token: token)
    }

    /// The page a list field asks for, checked by the domain as its resolver checks it; nil for
    /// a value that is not of the argument's type or that the domain refuses.
    static func pageRequest(
        _ list: SharedCardShape.ListPage, of owner: UUID, variables: JSONObject, viewer: Viewer
    ) -> FollowPageRequest? {
        func int(_ argument: SharedCardShape.Argument?) -> Int?? {
            switch argument?.value(variables) {
            case nil, .null?: .some(nil)
            case .int(let value)?: .some(value)
            default: nil
            }
        }
        func string(_ argument: SharedCardShape.Argument?) -> String?? {
            switch argument?.value(variables) {
            case nil, .null?: .some(nil)
            case .string(let value)?: .some(value)
            default: nil
            }
        }
        guard let first = int(list.first), let last = int(list.last), let after = string(list.after),
              let before = string(list.before)
        else { return nil }
        return try? GetFollowPages.request(list.kind, of: owner, first: first, after: after, last: last, before: before, viewer: viewer)
    }
}
