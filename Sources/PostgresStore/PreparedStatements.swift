import Foundation
import PostgresNIO

// The reads of every loader wave, as prepared statements: PostgresNIO prepares each once per
// connection (`Parse` under the statement's name) and then sends only `Bind`/`Execute`, so
// PostgreSQL parses and plans the text once per session instead of once per call (for the
// profiles' select, RLS and all, that was 0.4 ms of a 0.9 ms call). PostgreSQL keeps a prepared
// plan's role in mind: a plan made as `anon` is made again when the session is `authenticated`,
// so RLS decides as it would for a statement sent whole.
//
// The parameters' types are declared (`bindingDataTypes`): a JSON argument goes as `text` and
// is cast in the statement, as it was when sent whole; left to PostgreSQL, `$1::jsonb` would make
// the parameter `jsonb`, whose binary form a Swift string is not.

/// `public.follow_page_rows($1)`: every follow page of a wave, as ``FollowPageColumns``. Its
/// columns are named: a database whose function lacks one answers an error PostgreSQL words (the
/// store maps it to BACKEND_UNAVAILABLE) rather than a row that ``FollowPageColumns`` could not
/// read (PostgresNIO traps on an unknown name).
struct FollowPageRowsStatement: PostgresPreparedStatement {
    static let sql = """
        select request_index, total_count, follow_id, follower_id, followee_id, follow_created_us,
               viewer_follows, follows_viewer, id, handle, display_name, bio, photo_url, home_gym, climbing_since,
               favorite_style, is_public, follower_count, following_count, send_count, post_count, created_us, updated_us
        from public.follow_page_rows($1::jsonb)
        """
    static let bindingDataTypes: [PostgresDataType] = [.text]
    /// The wave's requests, as the JSON array the function takes.
    var requests: String

    func makeBindings() throws -> PostgresBindings { try Self.bindings(requests) }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// The profiles of a wave by id, as the JSON array of ``SupabaseSchema/ProfileRow``.
struct ProfilesByIDStatement: PostgresPreparedStatement {
    static let sql = PostgresStore.selectProfilesByID
    static let bindingDataTypes: [PostgresDataType] = [.uuidArray]
    var ids: [UUID]

    func makeBindings() throws -> PostgresBindings { try Self.bindings(ids) }
    func decodeRow(_ row: PostgresRow) throws -> String? { try row.decode(String?.self) }
}

/// `public.active_follows($1)`: which of a wave's pairs are active follows the caller may see.
struct ActiveFollowsStatement: PostgresPreparedStatement {
    static let sql = "select coalesce(json_agg(t), '[]')::text from public.active_follows($1::jsonb) t"
    static let bindingDataTypes: [PostgresDataType] = [.text]
    var pairs: String

    func makeBindings() throws -> PostgresBindings { try Self.bindings(pairs) }
    func decodeRow(_ row: PostgresRow) throws -> String? { try row.decode(String?.self) }
}

/// `public.post_pages($1)`: every author's page of posts of a wave.
struct PostPagesStatement: PostgresPreparedStatement {
    static let sql = "select coalesce(json_agg(t), '[]')::text from public.post_pages($1::jsonb) t"
    static let bindingDataTypes: [PostgresDataType] = [.text]
    var requests: String

    func makeBindings() throws -> PostgresBindings { try Self.bindings(requests) }
    func decodeRow(_ row: PostgresRow) throws -> String? { try row.decode(String?.self) }
}

/// `public.comment_pages($1)`: every post's page of comments of a wave.
struct CommentPagesStatement: PostgresPreparedStatement {
    static let sql = "select coalesce(json_agg(t), '[]')::text from public.comment_pages($1::jsonb) t"
    static let bindingDataTypes: [PostgresDataType] = [.text]
    var requests: String

    func makeBindings() throws -> PostgresBindings { try Self.bindings(requests) }
    func decodeRow(_ row: PostgresRow) throws -> String? { try row.decode(String?.self) }
}

/// `public.feed_page_with_sources(...)`: a page of the caller's feed and its sources.
struct FeedPageStatement: PostgresPreparedStatement {
    static let sql = "select public.feed_page_with_sources($1::bigint, $2::uuid, $3::int)::text"
    static let bindingDataTypes: [PostgresDataType] = [.int8, .uuid, .int4]
    var afterMicroseconds: Int64?
    var afterId: UUID?
    var pageSize: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(afterMicroseconds)
        bindings.append(afterId)
        bindings.append(Int32(clamping: pageSize))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> String? { try row.decode(String?.self) }
}

extension PostgresPreparedStatement {
    static func bindings<Value: PostgresEncodable>(_ value: Value) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        try bindings.append(value)
        return bindings
    }
}
