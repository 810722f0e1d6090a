import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

/// A profile read from PostgreSQL's own binary columns, named as ``columns(_:)`` selects them:
/// the profile reads by id and by handle, and the profile half of `follow_page_rows`
/// (``FollowPageColumns``). No JSON is built by the database nor parsed here: decoding the
/// profiles' `json_agg` with Foundation's `JSONDecoder` was the largest share of the gateway's
/// CPU on PostgreSQL for the reads that carry many (2026-11-27 and -28, `perf`).
enum ProfileColumns {
    /// The select list for the profiles row under `alias`, each column named as ``profile(_:)``
    /// reads it: dates as microseconds since the epoch, `climbing_since` as `YYYY-MM-DD`.
    static func columns(_ alias: String) -> String {
        """
        \(alias).id, \(alias).handle, \(alias).display_name, \(alias).bio, \(alias).photo_url, \(alias).home_gym,
        to_char(\(alias).climbing_since, 'YYYY-MM-DD') as climbing_since, \(alias).favorite_style, \(alias).is_public,
        \(alias).follower_count, \(alias).following_count, \(alias).send_count, \(alias).post_count,
        (extract(epoch from \(alias).created_at) * 1000000)::bigint as created_us,
        (extract(epoch from \(alias).updated_at) * 1000000)::bigint as updated_us
        """
    }

    /// The profile in `row`, or nil when its `id` is null (a row that lists no profile).
    /// - Throws: ``MalformedRow`` for a profile with its handle or dates missing, or a day it cannot read.
    static func profile(_ c: PostgresRandomAccessRow) throws -> Profile? {
        guard let id = try c["id"].decode(UUID?.self) else { return nil }
        guard let handle = try c["handle"].decode(String?.self), let created = try c["created_us"].decode(Int64?.self),
              let updated = try c["updated_us"].decode(Int64?.self)
        else { throw MalformedRow("profile \(id)") }
        var since: CalendarDay?
        if let text = try c["climbing_since"].decode(String?.self) {
            guard let day = CalendarDay(text) else { throw MalformedRow("climbing_since \(text)") }
            since = day
        }
        return Profile(
            id: id, handle: handle, displayName: try c["display_name"].decode(String?.self), bio: try c["bio"].decode(String?.self),
            avatarURL: try c["photo_url"].decode(String?.self), homeGym: try c["home_gym"].decode(String?.self),
            climbingSince: since, favoriteStyle: try c["favorite_style"].decode(String?.self),
            isPublic: try c["is_public"].decode(Bool.self), followerCount: try c["follower_count"].decode(Int.self),
            followingCount: try c["following_count"].decode(Int.self), sendCount: try c["send_count"].decode(Int.self),
            postCount: try c["post_count"].decode(Int?.self) ?? 0,
            createdAt: UnixMicroseconds.date(created), updatedAt: UnixMicroseconds.date(updated))
    }
}
