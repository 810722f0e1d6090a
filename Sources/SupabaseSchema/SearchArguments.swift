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
