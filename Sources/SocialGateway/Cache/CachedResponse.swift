import Foundation

/// A response found in the cache, ready to be written to the client.
///
/// `body` is exactly the bytes that were stored. `etag` is a quoted strong ETag derived from the
/// body, so equal bodies get equal tags across entries and restarts (`If-None-Match` works for
/// every viewer without leaking anything but "same bytes"). `maxAge` is the lifetime the entry
/// was stored with; the HTTP layer sends `Age: now - storedAt` next to it.
///
/// ```swift
/// if let hit = await cache.lookup(key) { return .ok(hit.body, etag: hit.etag) }
/// ```
public struct CachedResponse: Sendable {
    /// The response bytes as stored.
    public var body: [UInt8]
    /// A quoted strong ETag, `"<hex sha-256 of body>"`.
    public var etag: String
    /// When the entry was stored.
    public var storedAt: Date
    /// When the entry stops being fresh.
    public var expiresAt: Date
    /// Whether the entry is past `expiresAt` and served only because the caller allowed stale.
    public var isStale: Bool
    /// The lifetime in seconds the entry was stored with.
    public var maxAge: Int
    /// The body as the cache keeps it deflated, when it does (bodies under 1 KiB are kept as
    /// they are), for HTTP to send compressed without compressing again.
    public var deflated: DeflatedBody?

    public init(
        body: [UInt8], etag: String, storedAt: Date, expiresAt: Date, isStale: Bool, maxAge: Int, deflated: DeflatedBody? = nil
    ) {
        self.deflated = deflated
        self.body = body
        self.etag = etag
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.isStale = isStale
        self.maxAge = maxAge
    }

    /// The ETag for `body`: quoted lower-case hex SHA-256.
    public static func etag(for body: [UInt8]) -> String {
        "\"" + Hex.sha256(body) + "\""
    }
}
