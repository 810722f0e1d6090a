import Foundation
import GRDB
import SocialDomain

/// Two hops of the follow graph: "followed by people you follow" for a wave of profile cards in
/// one read transaction, and friends-of-friends suggestions in one statement. Visibility as in
/// the `profiles_read` and `follows_read` policies: a follow shows only between profiles the
/// viewer may see, so a path through a private profile does not count.
extension EmbeddedStore: SocialGraphStore {
    public func followedByViewerFollowing(_ requests: [FollowedByRequest], viewer: Viewer) async throws -> [ProfileListPage] {
        try await call(.followedByViewerFollowing) {
            guard let me = viewer.sqlId else { return requests.map { _ in .empty } }
            return try read { db in
                let statement = try db.cachedStatement(sql: SocialGraphQueries.followedBy)
                return try requests.map { request in
                    // At least one row, for the count: `first: 0` still reports totalCount.
                    let target = request.profileId.lowercased
                    let rows = try Row.fetchAll(statement, arguments: [target, me, me, target, me, max(request.limit, 1)])
                    let profiles = try rows.prefix(request.limit).map { try ProfileColumns.decode($0) }
                    return ProfileListPage(profiles: profiles, totalCount: rows.first.map { $0[ProfileColumns.names.count] } ?? 0)
                }
            }
        }
    }

    public func suggestedProfiles(limit: Int, viewer: Viewer) async throws -> ProfileListPage {
        try await call(.suggestedProfiles) {
            guard let me = viewer.sqlId else { return .empty }
            return try read { db in
                // Following nobody yet (issue 54): the most followed public profiles instead.
                let followsAnyone = try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM follows WHERE follower_id = ? AND deleted_at IS NULL)"),
                    arguments: [me]) ?? false
                let rows = followsAnyone
                    ? try Row.fetchAll(db.cachedStatement(sql: SocialGraphQueries.suggestions), arguments: [me, me, me, max(limit, 1)])
                    : try Row.fetchAll(db.cachedStatement(sql: SocialGraphQueries.popularSuggestions), arguments: [me, max(limit, 1)])
                let profiles = try rows.prefix(limit).map { try ProfileColumns.decode($0) }
                return ProfileListPage(profiles: profiles, totalCount: rows.first.map { $0[ProfileColumns.names.count] } ?? 0)
            }
        }
    }
}

/// The SQL of ``EmbeddedStore``'s ``SocialGraphStore`` methods, the same rules as
/// `supabase/migrations/20250301002400_followed_by_suggestions.sql`. Each row is a profile's
/// columns (``ProfileColumns``) then the count of the whole list (a window over every row before
/// the `LIMIT`).
enum SocialGraphQueries {
    /// Parameters: profile, viewer, viewer (visibility), profile, viewer (its visibility),
    /// limit. The viewer's follows by `follows_active_pair_idx`, each probed for a follow of the
    /// profile on `follows_pair_key`: one probe per profile the viewer follows. Most followed
    /// first, then id.
    ///
    /// The list is the profile's followers, so it follows `followers`' rule (``ProfileAccess``):
    /// none unless the viewer may see the whole profile (public, their own, or a private one
    /// they follow), as `follows_read` decides on PostgreSQL. A card's followers are not listed
    /// (issue 51: a private profile's followers reached strangers this way). The check is an
    /// uncorrelated sub-select, made once per statement.
    static let followedBy = """
        SELECT \(ProfileColumns.select("p")), count(*) OVER ()
        FROM follows v
        JOIN follows m ON m.follower_id = v.followee_id AND m.followee_id = ? AND m.deleted_at IS NULL
        JOIN profiles p ON p.id = v.followee_id
        WHERE v.follower_id = ? AND v.deleted_at IS NULL AND \(ProfileColumns.visible("p"))
          AND EXISTS (SELECT 1 FROM profiles t WHERE t.id = ? AND \(ProfileColumns.visible("t")))
        ORDER BY p.follower_count DESC, p.id
        LIMIT ?
        """

    /// Parameters: viewer three times, limit. Bounded work (``SuggestionBounds``): the viewer's
    /// most recent follows (the middle profiles; following implies seeing them), each one's most
    /// recent follows by `follows_follower_page_idx`, counted per followee; then, once per
    /// candidate, the exclusions and its counter; only the page's profiles are read whole.
    static let suggestions = """
        WITH me(id) AS (SELECT ?),
        mid AS (
          SELECT f.followee_id AS id FROM follows f
          WHERE f.follower_id = (SELECT id FROM me) AND f.deleted_at IS NULL
          ORDER BY f.created_at DESC, f.id DESC LIMIT \(SuggestionBounds.middleProfiles)
        ),
        paths AS (
          SELECT s.followee_id AS id, count(*) AS mutuals
          FROM mid JOIN follows s ON s.id IN (
            SELECT h.id FROM follows h WHERE h.follower_id = mid.id AND h.deleted_at IS NULL
            ORDER BY h.created_at DESC, h.id DESC LIMIT \(SuggestionBounds.followsPerMiddleProfile))
          GROUP BY s.followee_id
        ),
        ranked AS (
          SELECT r.id, r.mutuals, c.follower_count, count(*) OVER () AS total
          FROM paths r JOIN profiles c ON c.id = r.id
          WHERE c.is_public = 1 AND r.id <> ?
            AND NOT EXISTS (SELECT 1 FROM follows o WHERE o.follower_id = ? AND o.followee_id = r.id AND o.deleted_at IS NULL)
            AND NOT EXISTS (SELECT 1 FROM follow_requests q
                            WHERE q.requester_id = (SELECT id FROM me) AND q.target_id = r.id AND q.status = 'pending')
            AND \(ProfileColumns.notBlocked("(SELECT id FROM me)", "c"))
          ORDER BY r.mutuals DESC, c.follower_count DESC, r.id
          LIMIT ?
        )
        SELECT \(ProfileColumns.select("p")), k.total
        FROM ranked k JOIN profiles p ON p.id = k.id
        ORDER BY k.mutuals DESC, k.follower_count DESC, k.id
        """

    /// Parameters: viewer, limit. For a viewer who follows nobody yet (issue 54; migration
    /// 20250301004200 on PostgreSQL): the ``SuggestionBounds/popularProfiles`` most followed public
    /// profiles by `profiles_popular_idx`, then the same exclusions as ``suggestions`` (the viewer,
    /// a pending request, a block either way; nothing is followed), most followers first, then id.
    static let popularSuggestions = """
        WITH me(id) AS (SELECT ?),
        popular AS (
          SELECT c.id, c.follower_count FROM profiles c WHERE c.is_public = 1
          ORDER BY c.follower_count DESC, c.id LIMIT \(SuggestionBounds.popularProfiles)
        ),
        ranked AS (
          SELECT r.id, r.follower_count, count(*) OVER () AS total
          FROM popular r JOIN profiles c ON c.id = r.id
          WHERE r.id <> (SELECT id FROM me)
            AND NOT EXISTS (SELECT 1 FROM follow_requests q
                            WHERE q.requester_id = (SELECT id FROM me) AND q.target_id = r.id AND q.status = 'pending')
            AND \(ProfileColumns.notBlocked("(SELECT id FROM me)", "c"))
          ORDER BY r.follower_count DESC, r.id
          LIMIT ?
        )
        SELECT \(ProfileColumns.select("p")), k.total
        FROM ranked k JOIN profiles p ON p.id = k.id
        ORDER BY k.follower_count DESC, k.id
        """
}
