import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// A viewer's relation to one profile from the reads the rest of the store makes: the profile as
/// RLS and `profile_cards` show it to the viewer (so its access is the policies' own answer), the
/// two follows between them (`active_follows`), and, from the lists `profiles_read` itself
/// probes (`social_private.viewer_block_peers()`, `social_private.viewer_private_followees()`),
/// whether the viewer has a block and follows a private profile in this one's lists. Only the
/// answer's booleans leave the statement.
extension PostgresStore: ViewerRelationStore {
    public func viewerRelation(to key: ProfileKey, viewer: Viewer) async throws -> ViewerRelation? {
        guard let me = viewer.userId else { return nil }
        let profile: Profile?
        switch key {
        case .id(let id): profile = try await profiles(ids: [id], viewer: viewer)[id]
        case .handle(let handle): profile = try await profiles(handles: [handle], viewer: viewer)[handle.lowercased()]
        }
        guard let profile else { return nil }
        let pairs = [FollowPair(follower: me, followee: profile.id), FollowPair(follower: profile.id, followee: me)]
        let active = try await activeFollows(among: pairs, viewer: viewer)
        let id = profile.id
        let (hasBlocks, isPrivate, followsPrivateListed) = try await read("viewerRelation", viewer: viewer) {
            connection, logger -> (Bool, Bool, Bool) in
            let rows = try await connection.query(
                """
                select coalesce(cardinality(social_private.viewer_block_peers()), 0) > 0,
                       coalesce((select not v.is_public from public.profiles v where v.id = \(me)::uuid), true),
                       exists (select 1 from unnest(social_private.viewer_private_followees()) x (id)
                               where x.id <> \(id)::uuid
                                 and (exists (select 1 from public.follows a
                                              where a.follower_id = x.id and a.followee_id = \(id)::uuid and a.deleted_at is null)
                                      or exists (select 1 from public.follows b
                                                 where b.follower_id = \(id)::uuid and b.followee_id = x.id and b.deleted_at is null)))
                """, logger: logger)
            for try await facts in rows.decode((Bool, Bool, Bool).self) { return facts }
            throw MalformedRow("the viewer's relation returned no row")
        }
        return ViewerRelation(
            profileId: profile.id, access: profile.access, viewerFollows: active.contains(pairs[0]),
            followsViewer: active.contains(pairs[1]), viewerHasBlocks: hasBlocks, viewerIsPrivate: isPrivate,
            viewerFollowsPrivateListed: followsPrivateListed)
    }
}
