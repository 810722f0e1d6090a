import Foundation
import PostgresNIO
import SocialDomain

/// The graph unfiltered, for the gateway's memory (``SocialDomain/GraphSnapshotStore``): read as
/// `service_role` (``ViewerClaims/unfiltered``), which bypasses row-level security; the gateway
/// applies the domain's rule to what it reads. Never a request's read.
extension PostgresStore: GraphSnapshotStore {
    public func snapshotProfiles(ids: [UUID]) async throws -> [UUID: Profile] {
        let keys = Array(Set(ids))
        guard !keys.isEmpty else { return [:] }
        return try await read("snapshotProfiles", claims: .unfiltered) { connection, logger in
            var result: [UUID: Profile] = [:]
            for try await profile in try await connection.execute(ProfilesByIDStatement(ids: keys), logger: logger) {
                if let profile { result[profile.id] = profile }
            }
            return result
        }
    }

    public func snapshotProfiles(handles: [String]) async throws -> [String: Profile] {
        let keys = Array(Set(handles.map { $0.lowercased() }))
        guard !keys.isEmpty else { return [:] }
        return try await read("snapshotProfiles", claims: .unfiltered) { connection, logger in
            var result: [String: Profile] = [:]
            for try await profile in try await connection.execute(ProfilesByHandleStatement(handles: keys), logger: logger) {
                if let profile { result[profile.handle.lowercased()] = profile }
            }
            return result
        }
    }

    /// Every list's start in one statement: a lateral walk of its page index per owner, `limit + 1`
    /// follows each (the extra one says whether the list goes on), with the profile on the other end.
    public func followListSnapshots(_ lists: [FollowList], limit: Int) async throws -> [FollowList: FollowListSnapshot] {
        let unique = Array(Set(lists))
        guard !unique.isEmpty else { return [:] }
        let followersOf = unique.filter { $0.kind == .followers }.map(\.owner)
        let followingOf = unique.filter { $0.kind == .following }.map(\.owner)
        let query: PostgresQuery = """
            select true as followers, l.owner, f.id as follow_id, f.follower_id, f.followee_id,
                   (extract(epoch from f.created_at) * 1000000)::bigint as follow_created_us, \(unescaped: ProfileColumns.columns("p"))
            from unnest(\(followersOf)::uuid[]) l (owner)
            cross join lateral (select * from public.follows f where f.followee_id = l.owner and f.deleted_at is null
                                order by f.created_at desc, f.id desc limit \(limit + 1)) f
            join public.profiles p on p.id = f.follower_id
            union all
            select false, l.owner, f.id, f.follower_id, f.followee_id,
                   (extract(epoch from f.created_at) * 1000000)::bigint, \(unescaped: ProfileColumns.columns("p"))
            from unnest(\(followingOf)::uuid[]) l (owner)
            cross join lateral (select * from public.follows f where f.follower_id = l.owner and f.deleted_at is null
                                order by f.created_at desc, f.id desc limit \(limit + 1)) f
            join public.profiles p on p.id = f.followee_id
            """
        return try await read("followListSnapshots", claims: .unfiltered) { connection, logger in
            var follows: [FollowList: [Follow]] = [:]
            var profiles: [FollowList: [UUID: Profile]] = [:]
            for try await row in try await connection.query(query, logger: logger) {
                let c = row.makeRandomAccess()
                let list = FollowList(try c["followers"].decode(Bool.self) ? .followers : .following, of: try c["owner"].decode(UUID.self))
                follows[list, default: []].append(Follow(
                    id: try c["follow_id"].decode(UUID.self), followerId: try c["follower_id"].decode(UUID.self),
                    followeeId: try c["followee_id"].decode(UUID.self), createdAtMicroseconds: try c["follow_created_us"].decode(Int64.self)))
                if let profile = try ProfileColumns.profile(c) { profiles[list, default: [:]][profile.id] = profile }
            }
            var result: [FollowList: FollowListSnapshot] = [:]
            for list in unique {
                // Newest first, as the walk read them (the join may not keep the order).
                var start = (follows[list] ?? []).sorted { $0.keyset > $1.keyset }
                let complete = start.count <= limit
                if !complete { start.removeLast(start.count - limit) }
                result[list] = FollowListSnapshot(list: list, follows: start, profiles: profiles[list] ?? [:], isComplete: complete)
            }
            return result
        }
    }

    public func viewerFacts(_ viewer: UUID, limit: Int) async throws -> ViewerFacts? {
        try await read("viewerFacts", claims: .unfiltered) { connection, logger -> ViewerFacts? in
            let rows = try await connection.query(
                """
                select array(select f.followee_id from public.follows f where f.follower_id = \(viewer) and f.deleted_at is null
                             limit \(limit + 1)),
                       array(select f.follower_id from public.follows f where f.followee_id = \(viewer) and f.deleted_at is null
                             limit \(limit + 1)),
                       array(select b.blocked_id from public.blocks b where b.blocker_id = \(viewer)
                             union select b.blocker_id from public.blocks b where b.blocked_id = \(viewer) limit \(limit + 1)),
                       array(select r.target_id from public.follow_requests r where r.requester_id = \(viewer) and r.status = 'pending'
                             limit \(limit + 1))
                """, logger: logger)
            for try await (follows, followers, blocks, pending) in rows.decode(([UUID], [UUID], [UUID], [UUID]).self) {
                guard [follows, followers, blocks, pending].allSatisfy({ $0.count <= limit }) else { return nil }
                return ViewerFacts(
                    viewer: viewer, follows: Set(follows), followers: Set(followers), blocks: Set(blocks), pendingRequests: Set(pending))
            }
            return nil
        }
    }
}
