import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// A row of `follow_page_rows` (migration 20250301002700), decoded from PostgreSQL's own binary
/// columns: no JSON is built by the database nor parsed here. The JSON form of the same rows
/// (`follow_pages_with_states`, what PostgREST answers the Supabase store) cost most of both
/// sides' time for a 550-row wave: `jsonb_build_object` per row and `json_agg` in PostgreSQL,
/// Foundation's `JSONDecoder` (38% of the gateway's CPU for a random follower graph) here.
struct FollowPageColumns {
    var requestIndex: Int
    var totalCount: Int
    var edge: FollowEdge?

    /// Decodes one row; `requests` are the wave's, for the list each edge belongs to.
    /// - Throws: ``MalformedRow`` for a row naming no request, or one without its profile.
    init(_ row: PostgresRow, answering requests: [FollowPageRequest], signedIn: Bool) throws {
        let c = row.makeRandomAccess()
        requestIndex = try c["request_index"].decode(Int.self)
        totalCount = try c["total_count"].decode(Int.self)
        guard requests.indices.contains(requestIndex) else { throw MalformedRow("follow_page_rows request_index \(requestIndex)") }
        guard let followId = try c["follow_id"].decode(UUID?.self) else {
            edge = nil   // the row of an empty page
            return
        }
        guard let follower = try c["follower_id"].decode(UUID?.self), let followee = try c["followee_id"].decode(UUID?.self),
              let created = try c["follow_created_us"].decode(Int64?.self), let profile = try ProfileColumns.profile(c)
        else { throw MalformedRow("follow_page_rows row \(followId)") }
        let id = profile.id
        var state: FollowState?
        if signedIn, let following = try c["viewer_follows"].decode(Bool?.self), let followed = try c["follows_viewer"].decode(Bool?.self) {
            state = FollowState(profileId: id, viewerIsFollowing: following, followsViewer: followed)
        }
        edge = FollowEdge(
            list: requests[requestIndex].list,
            follow: Follow(id: followId, followerId: follower, followeeId: followee, createdAtMicroseconds: created),
            profile: profile, viewerState: state)
    }
}
