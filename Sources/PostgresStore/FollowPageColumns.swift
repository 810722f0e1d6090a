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
              let created = try c["follow_created_us"].decode(Int64?.self), let id = try c["id"].decode(UUID?.self),
              let handle = try c["handle"].decode(String?.self), let profileCreated = try c["created_us"].decode(Int64?.self),
              let profileUpdated = try c["updated_us"].decode(Int64?.self)
        else { throw MalformedRow("follow_page_rows row \(followId)") }
        var since: CalendarDay?
        if let text = try c["climbing_since"].decode(String?.self) {
            guard let day = CalendarDay(text) else { throw MalformedRow("climbing_since \(text)") }
            since = day
        }
        let profile = Profile(
            id: id, handle: handle, displayName: try c["display_name"].decode(String?.self), bio: try c["bio"].decode(String?.self),
            avatarURL: try c["photo_url"].decode(String?.self), homeGym: try c["home_gym"].decode(String?.self),
            climbingSince: since, favoriteStyle: try c["favorite_style"].decode(String?.self),
            isPublic: try c["is_public"].decode(Bool.self), followerCount: try c["follower_count"].decode(Int.self),
            followingCount: try c["following_count"].decode(Int.self), sendCount: try c["send_count"].decode(Int.self),
            postCount: try c["post_count"].decode(Int?.self) ?? 0,
            createdAt: UnixMicroseconds.date(profileCreated), updatedAt: UnixMicroseconds.date(profileUpdated))
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
