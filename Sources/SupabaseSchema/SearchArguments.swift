import Foundation
import SocialDomain

/// `select=id`: which rows a write touched.
public struct IdRow: Codable, Sendable {
    public var id: String
    public init(id: String) { self.id = id }
}

/// The named arguments of `search_profiles`. Decodable too, for the Supabase fake.
public struct SearchArguments: Codable {
    public var pattern: String
    public var after_handle: String?
    public var after_id: String?
    public var page_size: Int

    public init(pattern: String, after_handle: String?, after_id: String?, page_size: Int) {
        self.pattern = pattern
        self.after_handle = after_handle
        self.after_id = after_id
        self.page_size = page_size
    }

    public enum CodingKeys: String, CodingKey { case pattern, after_handle, after_id, page_size }

    /// Explicit nulls, so the request says what it means.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pattern, forKey: .pattern)
        try c.encode(after_handle, forKey: .after_handle)
        try c.encode(after_id, forKey: .after_id)
        try c.encode(page_size, forKey: .page_size)
    }
}

/// The named arguments of `search_profiles_ranked` (migration 20250301002500): those of
/// `search_profiles` plus the lower-case query that ranks a handle and the keyset's rank.
/// Decodable too, for the Supabase fake.
public struct RankedSearchArguments: Codable {
    public var pattern: String
    public var query_key: String
    public var after_rank: Int?
    public var after_handle: String?
    public var after_id: String?
    public var page_size: Int

    public init(pattern: String, query_key: String, after_rank: Int?, after_handle: String?, after_id: String?, page_size: Int) {
        self.pattern = pattern
        self.query_key = query_key
        self.after_rank = after_rank
        self.after_handle = after_handle
        self.after_id = after_id
        self.page_size = page_size
    }

    public enum CodingKeys: String, CodingKey { case pattern, query_key, after_rank, after_handle, after_id, page_size }

    /// Explicit nulls, so the request says what it means.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pattern, forKey: .pattern)
        try c.encode(query_key, forKey: .query_key)
        try c.encode(after_rank, forKey: .after_rank)
        try c.encode(after_handle, forKey: .after_handle)
        try c.encode(after_id, forKey: .after_id)
        try c.encode(page_size, forKey: .page_size)
    }
}
