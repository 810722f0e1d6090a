import Foundation
import Logging
import PostgresNIO
import PostgresStore
import SocialDomain

/// A throwaway database on the test PostgreSQL server, copied from the `social_template`
/// database (`supabase/tests/auth_stub.sql` and every migration applied) that
/// `scripts/test-postgres-env` prepares, and seeded with the same data the other stores get.
///
/// The server is named by `SOCIAL_GATEWAY_TEST_POSTGRES` (a superuser URL); without it the
/// PostgreSQL kind is not among ``StoreKind/allCases``. The store connects as `authenticator`,
/// the login role that may only become `anon` or `authenticated`, as PostgREST does.
public struct PostgresTestDatabase: Sendable {
    /// The variable naming the test server.
    public static let variable = "SOCIAL_GATEWAY_TEST_POSTGRES"
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    public let name: String
    let admin: PostgresConfiguration.Endpoint

    /// The database as the store's login user sees it.
    public var storeURL: String { "postgres://authenticator@\(admin.host):\(admin.port)/\(name)?sslmode=disable" }
    /// The database as the superuser (to write "from outside the gateway", as psql would).
    public var adminURL: String { "postgres://\(admin.username)@\(admin.host):\(admin.port)/\(name)?sslmode=disable" }

    /// Creates the database and fills it.
    public static func create(
        profiles: [Profile], follows: [Follow], ownerDetails: [UUID: ProfileOwnerDetails], posts: [Post] = [],
        likes: [(post: UUID, profile: UUID)] = [], comments: [SocialDomain.Comment] = []
    ) async throws -> PostgresTestDatabase {
        guard let url = serverURL else {
            throw PostgresConfigurationError("\(variable) is not set: run the tests through scripts/test (or scripts/test-postgres-env)")
        }
        let admin = try PostgresConfiguration.Endpoint(url: url, name: variable)
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withConnection(admin, database: admin.database) { connection, logger in
            try await connection.query("create database \(unescaped: name) template social_template", logger: logger)
        }
        let database = PostgresTestDatabase(name: name, admin: admin)
        try await database.seed(profiles: profiles, follows: follows, ownerDetails: ownerDetails)
        if !posts.isEmpty { try await database.seed(posts: posts, likes: likes, comments: comments) }
        return database
    }

    /// Drops the database (its connections are closed by force).
    public func drop() async {
        _ = try? await Self.withConnection(admin, database: admin.database) { connection, logger in
            try await connection.query("drop database if exists \(unescaped: name) with (force)", logger: logger)
        }
    }

    /// Runs statements, one after the other on one session, as the superuser on this database:
    /// a write from outside the gateway (psql's). One statement per string.
    public func execute(_ statements: String...) async throws {
        try await Self.withConnection(admin, database: name) { connection, logger in
            for sql in statements { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
        }
    }

    /// The first column of the first row of `sql` (a `bigint`), read as the superuser: what the
    /// database holds regardless of row-level security, e.g. a row's time in microseconds.
    public func int64(_ sql: String) async throws -> Int64? {
        try await Self.withConnection(admin, database: name) { connection, logger in
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int64?.self) {
                return value
            }
            return nil
        }
    }

    /// Takes the database down for the store (`allow_connections` off, its sessions ended) or
    /// brings it back: what a store sees when its server stops and starts.
    public func setAcceptingConnections(_ accepting: Bool) async throws {
        try await Self.withConnection(admin, database: admin.database) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "alter database \(name) allow_connections \(accepting)"), logger: logger)
            if !accepting {
                try await connection.query(
                    "select pg_terminate_backend(pid) from pg_stat_activity where datname = \(name) and pid <> pg_backend_pid()",
                    logger: logger)
            }
        }
    }

    /// Rows in, with triggers off (`session_replication_role = replica`): the counters and times
    /// are the given ones, exactly as the other stores seed them.
    private func seed(profiles: [Profile], follows: [Follow], ownerDetails: [UUID: ProfileOwnerDetails]) async throws {
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
        try await Self.withConnection(admin, database: name) { connection, logger in
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
    }

    /// Posts, likes and comments with triggers off: counters as given.
    private func seed(posts: [Post], likes: [(post: UUID, profile: UUID)], comments: [SocialDomain.Comment]) async throws {
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
        try await Self.withConnection(admin, database: name) { connection, logger in
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
    }

    @discardableResult
    static func withConnection<T: Sendable>(
        _ admin: PostgresConfiguration.Endpoint, database: String,
        _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "postgres-test-database")
        let configuration = PostgresConnection.Configuration(
            host: admin.host, port: admin.port, username: admin.username, password: admin.password, database: database,
            tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let value = try await body(connection, logger)
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
