import Foundation
import GraphQLLanguage
import SocialDomain

extension GatewayService {
    /// Where a profile card's answer is kept for every signed-in viewer with the same relation
    /// to its profile, the token taken before that relation was read, and the tags a change of
    /// the relation invalidates.
    struct SharedCardLookup: Sendable {
        let lookup: CacheLookup
        let token: CacheToken
        let relationTags: Set<String>
    }

    /// The shared place of a signed-in viewer's card (issue 41), or nil to keep the answer per
    /// viewer.
    ///
    /// Why shared answers and not an entity cache beneath the resolvers: a card miss spent about
    /// as much on the per-viewer entry it stored (and never found again, with a million viewer
    /// and profile pairs) as on executing, and an entity cache would have kept both costs and the
    /// per-viewer store reads for follow states and visibility. Instead the store answers one
    /// question per request, the viewer's ``ViewerRelation`` to the profile (its own visibility
    /// SQL decides the access: the rule is not written again in Swift), and the answer is keyed
    /// by that relation instead of the viewer. Two viewers with the same relation, neither of
    /// them the profile and both with ``SocialDomain/ViewerRelation/listsAreCommon`` (no block,
    /// no private profile in the lists that only they see), get the same answer:
    /// its fields follow from the access, its follow flags are in the key, and its lists show
    /// both the same public profiles (``SharedCardShape`` admits only fields of the listed
    /// profiles that every such viewer sees alike).
    /// The answer is computed by the first of them, as that viewer, and stored with the tags it
    /// read: a write anywhere invalidates it as it invalidated the per-viewer answers.
    ///
    /// Read-your-writes: the relation is read from the store again after any invalidation
    /// (``KnownRelations`` keeps it only while nothing was invalidated), so a viewer's own
    /// follow, block or profile change moves their next request to another key (or off the
    /// shared path), and the answer under the old key was invalidated by the write's tags. The
    /// token is taken before the relation is read, and the answer is stored only if none of
    /// `Profile:<profile>`, `Profile:<viewer>` and `follow-lists` (every write that changes a
    /// relation names one) was invalidated since: an answer computed after a relation changed is
    /// never kept under the relation read before.
    ///
    /// Viewers whose lists may differ (a block, a private profile of their own or followed), the
    /// profile's owner, hidden or missing profiles, and backends without
    /// ``GatewayStores/relations`` keep the per-viewer key.
    ///
    /// With graph memory on, the card is keyed by what the viewer sees of it instead, read from
    /// memory (``audienceCardLookup(_:operation:request:reads:)``).
    func sharedCardLookup(_ prepared: PreparedDocument, operation: OperationDefinition, request: GatewayRequest) async -> SharedCardLookup? {
        if let memoryReads { return await audienceCardLookup(prepared, operation: operation, request: request, reads: memoryReads) }
        let name = operation.name?.value
        guard let relations = stores.relations, let me = request.viewer.userId,
              let shape = prepared.sharedCards[name], let printed = prepared.printed,
              let policy = prepared.queryPolicies[name], policy.maxAge > 0,
              let profileKey = shape.profileKey(variables: request.variables)
        else { return nil }
        let memoKey = KnownRelations.Key(viewer: me, profile: profileKey)
        let token: CacheToken, relation: ViewerRelation?
        if let known = knownRelations.relation(memoKey, cache: options.cache) {
            (token, relation) = (known.token, known.relation)
        } else {
            token = options.cache.beginComputation()
            do {
                relation = try await relations.viewerRelation(to: profileKey, viewer: request.viewer)
            } catch {
                // The execution's own reads will report the store's failure as usual.
                return nil
            }
            knownRelations.remember(memoKey, KnownRelations.Known(relation: relation, token: token))
        }
        guard let relation, relation.profileId != me, relation.listsAreCommon else { return nil }
        let facts = Self.relationFacts(
            profile: relation.profileId, access: relation.access, follows: relation.viewerFollows, followed: relation.followsViewer)
        return sharedCard(facts: facts, profile: relation.profileId, viewer: me, printed: printed, policy: policy, request: request, token: token)
    }

    /// The facts both kinds of shared card start their key with: the profile, the viewer's access
    /// to it, and the follows between the two.
    static func relationFacts(profile: UUID, access: ProfileAccess, follows: Bool, followed: Bool) -> String {
        "\(profile.lowercased):\(access.rawValue):\(follows ? "follows" : "-"):\(followed ? "followed" : "-")"
    }

    /// A card's shared place for the viewers whose view of `profile` is `facts`, kept under
    /// `token` with the tags a change of that view invalidates.
    func sharedCard(
        facts: String, profile: UUID, viewer me: UUID, printed: String, policy: CachePolicy, request: GatewayRequest,
        token: CacheToken
    ) -> SharedCardLookup {
        var policy = policy
        policy.isPrivate = true
        let key = CacheKey(
            document: printed, operationName: request.operationName,
            variables: canonicalJSON(.object(request.variables)), scope: .relation(facts))
        return SharedCardLookup(
            lookup: CacheLookup(key: key, policy: policy), token: token,
            relationTags: [CacheTags.profile(profile), CacheTags.profile(me), CacheTags.followLists])
    }
}
