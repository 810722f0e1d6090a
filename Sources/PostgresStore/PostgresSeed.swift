import Foundation
import Logging
import PostgresNIO
import SocialDomain

/// Rows written straight into a database, as the other stores seed theirs: the test databases
/// (the demo data) and the load test's generated graph (`social-gateway seed-postgres`) go in
/// through here, so that every store holds exactly the same rows and a figure compares.
///
/// Each batch is one statement over a `jsonb` parameter (`jsonb_to_recordset`): 50,000 follows
/// go in as one round trip. Not for the gateway's own writes, which go through the ports.
public enum PostgresSeed {
    /// Runs `body` on a new session to `endpoint` (a superuser's: replica mode and the `auth`
    /// schema need one), closed afterwards whatever happens.
    public static func withConnection<T: Sendable>(
        to endpoint: PostgresConfiguration.Endpoint, logger: Logger,
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let configuration = PostgresConnection.Configuration(
            host: endpoint.host, port: endpoint.port, username: endpoint.username, password: endpoint.password,
            database: endpoint.database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let value = try await body(connection)
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Profiles (with their `auth.users` rows and owner details) and follows, with triggers off
    /// (`session_replication_role = replica`): the counters and times are the given ones, exactly
    /// as the other stores seed them. `connection` must be a superuser's (replica mode, `auth`).
    public static func insert(
        profiles: [Profile], follows: [Follow], ownerDetails: [UUID: ProfileOwnerDetails],
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        func micros(_ date: Date) -> Int64 { UnixMicroseconds.from(date) }
        let profileRows: [[String: Any]] = profiles.map { p in
            var row: [String: Any] = [
                "id": p.id.lowercased, "handle": p.handle, "is_public": p.isPublic, "follower_count": p.followerCount,
                "following_count": p.followingCount, "send_count": p.sendCount, "post_count": p.postCount,
                "created_us": micros(p.createdAt), "updated_us": micros(p.updatedAt),
            ]
            row["display_name"] = p.displayName
            row["bio"] = p.bio
            row["photo_url"] = p.avatarURL
            row["home_gym"] = p.homeGym
            row["climbing_since"] = p.climbingSince?.description
            row["favorite_style"] = p.favoriteStyle
            return row
        }
        let privateRows: [[String: Any]] = profiles.map { p in
            let details = ownerDetails[p.id] ?? ProfileOwnerDetails()
            var row: [String: Any] = ["id": p.id.lowercased]
            row["home_zip"] = details.homeZIP
            row["preferred_grade_scale_boulder"] = details.preferredGradeScaleBoulder
            row["preferred_grade_scale_route"] = details.preferredGradeScaleRoute
            if let premium = details.premium {
                row["premium_expires_us"] = micros(premium.expiresAt)
                row["premium_product_id"] = premium.productId
                row["premium_original_transaction_id"] = premium.originalTransactionId
            }
            return row
        }
        let followRows: [[String: Any]] = follows.map { f in
            ["id": f.id.lowercased, "follower_id": f.followerId.lowercased, "followee_id": f.followeeId.lowercased,
             "created_us": f.createdAtMicroseconds]
        }
        func json(_ rows: [[String: Any]]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self)
        }
        let (p, q, f) = (try json(profileRows), try json(privateRows), try json(followRows))
        let at = "timestamptz 'epoch' + interval '1 microsecond' *"
        try await connection.query("set session_replication_role = replica", logger: logger)
        try await connection.query("""
            insert into auth.users (id, email)
            select id, handle || '@example.test' from jsonb_to_recordset(\(p)::jsonb) as r(id uuid, handle text)
            """, logger: logger)
        try await connection.query("""
            insert into public.profiles (id, handle, display_name, bio, photo_url, home_gym, climbing_since, favorite_style,
              is_public, follower_count, following_count, send_count, post_count, created_at, updated_at)
            select id, handle, display_name, bio, photo_url, home_gym, climbing_since, favorite_style, is_public,
              follower_count, following_count, send_count, post_count, \(unescaped: at) created_us, \(unescaped: at) updated_us
            from jsonb_to_recordset(\(p)::jsonb) as r(id uuid, handle text, display_name text, bio text, photo_url text,
              home_gym text, climbing_since date, favorite_style text, is_public boolean, follower_count int,
              following_count int, send_count int, post_count int, created_us bigint, updated_us bigint)
            """, logger: logger)
        try await connection.query("""
            insert into public.profile_private (id, home_zip, preferred_grade_scale_boulder, preferred_grade_scale_route,
              premium_expires_at, premium_product_id, premium_original_transaction_id)
            select id, home_zip, preferred_grade_scale_boulder, preferred_grade_scale_route,
              \(unescaped: at) premium_expires_us, premium_product_id, premium_original_transaction_id
            from jsonb_to_recordset(\(q)::jsonb) as r(id uuid, home_zip text, preferred_grade_scale_boulder text,
              preferred_grade_scale_route text, premium_expires_us bigint, premium_product_id text,
              premium_original_transaction_id text)
            """, logger: logger)
        try await connection.query("""
            insert into public.follows (id, follower_id, followee_id, created_at, updated_at)
            select id, follower_id, followee_id, \(unescaped: at) created_us, \(unescaped: at) created_us
            from jsonb_to_recordset(\(f)::jsonb) as r(id uuid, follower_id uuid, followee_id uuid, created_us bigint)
            """, logger: logger)
    }

    /// Posts, likes and comments with triggers off: counters as given.
    public static func insert(
        posts: [Post], likes: [(post: UUID, profile: UUID)], comments: [SocialDomain.Comment],
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        func json(_ rows: [[String: Any]]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self)
        }
        let p = try json(posts.map { post in
            ["id": post.id.lowercased, "author_id": post.authorId.lowercased, "content": post.content, "image_urls": post.imageURLs,
             "like_count": post.likeCount, "comment_count": post.commentCount, "created_us": post.createdAtMicroseconds,
             "updated_us": UnixMicroseconds.from(post.updatedAt)]
        })
        let l = try json(likes.map { ["post_id": $0.post.lowercased, "profile_id": $0.profile.lowercased] })
        let c = try json(comments.map { comment in
            ["id": comment.id.lowercased, "post_id": comment.postId.lowercased, "author_id": comment.authorId.lowercased,
             "content": comment.content, "created_us": comment.createdAtMicroseconds]
        })
        let at = "timestamptz 'epoch' + interval '1 microsecond' *"
        try await connection.query("set session_replication_role = replica", logger: logger)
        try await connection.query("""
            insert into public.posts (id, author_id, content, image_urls, like_count, comment_count, created_at, updated_at)
            select id, author_id, content, array(select jsonb_array_elements_text(image_urls)), like_count, comment_count,
              \(unescaped: at) created_us, \(unescaped: at) updated_us
            from jsonb_to_recordset(\(p)::jsonb) as r(id uuid, author_id uuid, content text, image_urls jsonb,
              like_count int, comment_count int, created_us bigint, updated_us bigint)
            """, logger: logger)
        try await connection.query("""
            insert into public.post_likes (post_id, profile_id)
            select post_id, profile_id from jsonb_to_recordset(\(l)::jsonb) as r(post_id uuid, profile_id uuid)
            """, logger: logger)
        try await connection.query("""
            insert into public.comments (id, post_id, author_id, content, created_at)
            select id, post_id, author_id, content, \(unescaped: at) created_us
            from jsonb_to_recordset(\(c)::jsonb) as r(id uuid, post_id uuid, author_id uuid, content text, created_us bigint)
            """, logger: logger)
    }

    /// Fresh planner statistics after a bulk load, so that the first requests are planned on the
    /// rows that are there (autovacuum would get to it within a minute).
    public static func analyze(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("analyze", logger: logger)
    }
}
