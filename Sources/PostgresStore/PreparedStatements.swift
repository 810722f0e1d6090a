import Foundation
import PostgresNIO
import SocialDomain
import SupabaseSchema

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

/// The profiles of a wave by id that RLS lets the caller see, a row each (``ProfileColumns``).
struct ProfilesByIDStatement: PostgresPreparedStatement {
    static let sql = "select \(ProfileColumns.columns("p")) from public.profiles p where p.id = any($1::uuid[])"
    static let bindingDataTypes: [PostgresDataType] = [.uuidArray]
    var ids: [UUID]

    func makeBindings() throws -> PostgresBindings { try Self.bindings(ids) }
    func decodeRow(_ row: PostgresRow) throws -> Profile? { try ProfileColumns.profile(row.makeRandomAccess()) }
}

/// The profiles of a wave by handle (lowercased, as `handle_lower` keeps them) that RLS lets the
/// caller see, a row each (``ProfileColumns``).
struct ProfilesByHandleStatement: PostgresPreparedStatement {
    static let sql = "select \(ProfileColumns.columns("p")) from public.profiles p where p.handle_lower = any($1::text[])"
    static let bindingDataTypes: [PostgresDataType] = [.textArray]
    var handles: [String]

    func makeBindings() throws -> PostgresBindings { try Self.bindings(handles) }
    func decodeRow(_ row: PostgresRow) throws -> Profile? { try ProfileColumns.profile(row.makeRandomAccess()) }
}

/// `public.active_follows($1)`: which of a wave's pairs are active follows the caller may see,
/// a pair per row in PostgreSQL's binary uuids (no JSON built there and parsed here: a feed
/// page asks one such wave, and decoding its JSON was 3.7% of the gateway's CPU for the page).
struct ActiveFollowsStatement: PostgresPreparedStatement {
    static let sql = "select follower_id, followee_id from public.active_follows($1::jsonb)"
    static let bindingDataTypes: [PostgresDataType] = [.text]
    var pairs: String

    func makeBindings() throws -> PostgresBindings { try Self.bindings(pairs) }
    func decodeRow(_ row: PostgresRow) throws -> FollowPair {
        let (follower, followee) = try row.decode((UUID, UUID).self)
        return FollowPair(follower: follower, followee: followee)
    }
}

/// `public.post_pages($1)`: every author's page of posts of a wave.
struct PostPagesStatement: PostgresPreparedStatement {
    static let sql = "select coalesce(json_agg(t), '[]')::text from public.post_pages($1::jsonb) t"
    static let bindingDataTypes: [PostgresDataType] = [.text]
    var requests: String

    func makeBindings() throws -> PostgresBindings { try Self.bindings(requests) }
    func decodeRow(_ row: PostgresRow) throws -> String? { try row.decode(String?.self) }
}

/// `public.comment_pages($1)`: every post's page of comments of a wave, a comment per row, its
/// fields taken out of the function's JSON by PostgreSQL and sent as binary columns (decoding
/// that JSON with `JSONDecoder` here was 5.6% of the gateway's CPU for a feed page). A request
/// whose post shows no comment is one row without a comment.
struct CommentPagesStatement: PostgresPreparedStatement {
    static let sql = """
        select request_index, total_count, (comment ->> 'id')::uuid, (comment ->> 'post_id')::uuid,
               (comment ->> 'author_id')::uuid, comment ->> 'content',
               (extract(epoch from (comment ->> 'created_at')::timestamptz) * 1000000)::bigint
        from public.comment_pages($1::jsonb)
        """
    static let bindingDataTypes: [PostgresDataType] = [.text]
    var requests: String

    func makeBindings() throws -> PostgresBindings { try Self.bindings(requests) }
    /// - Throws: ``SupabaseSchema/MalformedRow`` for a comment with a field missing.
    func decodeRow(_ row: PostgresRow) throws -> (requestIndex: Int, totalCount: Int, comment: Comment?) {
        let (index, total, id, post, author, content, created) =
            try row.decode((Int, Int, UUID?, UUID?, UUID?, String?, Int64?).self)
        guard let id else { return (index, total, nil) }
        guard let post, let author, let content, let created else { throw MalformedRow("comment \(id)") }
        return (index, total, Comment(id: id, postId: post, authorId: author, content: content, createdAtMicroseconds: created))
    }
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
