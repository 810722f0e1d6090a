import Foundation
import SocialDomain

/// Where the Supabase project is and how the gateway talks to it, read from the environment.
///
/// The gateway only ever holds the project's public key (`anon` or publishable): every data
/// request carries the caller's own token, so row-level security decides. The JWT secret and
/// the JWKS URL are for the auth layer, which verifies tokens before they reach the store.
///
/// ```swift
/// if let config = try SupabaseConfiguration.fromEnvironment() {   // nil: use the embedded store
///     let store = try await SupabaseStore.connect(configuration: config)
/// }
/// ```
public struct SupabaseConfiguration: Sendable, Hashable {
    /// The project URL, e.g. `https://abcd.supabase.co`, without a trailing slash.
    public var url: URL
    /// `SUPABASE_ANON_KEY` (a legacy JWT) or `SUPABASE_PUBLISHABLE_KEY` (`sb_publishable_...`).
    public var apiKey: String
    /// `SUPABASE_JWT_SECRET`: the legacy HS256 secret, if tokens are verified with it.
    public var jwtSecret: String?
    /// `SUPABASE_JWKS_URL`, default `<url>/auth/v1/.well-known/jwks.json`.
    public var jwksURL: URL

    /// Whole-request deadline, connect included (default 10 s).
    public var requestTimeout: Duration = .seconds(10)
    /// TCP connect timeout (default 3 s).
    public var connectTimeout: Duration = .seconds(3)
    /// Extra attempts for idempotent reads after a timeout, a transport error, 5xx or 429
    /// (default 2; writes are never retried).
    public var maxReadRetries: Int = 2
    /// First retry delay; it doubles per attempt (default 100 ms).
    public var retryBaseDelay: Duration = .milliseconds(100)
    /// Pooled keep-alive connections per host before requests queue (default 16).
    public var maxConnectionsPerHost: Int = 16
    /// The project's API "Max Rows" setting (`SUPABASE_MAX_ROWS`; PostgREST's `db-max-rows`,
    /// default 1000). PostgREST
    /// silently cuts any table, view or function read at this many rows, so batched reads are
    /// split to never ask for more in one request.
    public var maxRows: Int = 1000
    /// `Cache-Control` stored with each avatar (default `max-age=3600`, what the SDKs send).
    public var avatarCacheControl: String = "max-age=3600"
    /// The Storage bucket for avatars (default `avatars`, created by the migrations).
    public var avatarBucket: String = "avatars"
    /// The public bucket of story files (migration 20250301001500).
    public var storiesBucket: String = "stories"
    /// The public bucket of images uploaded with posts (migration 20250301004300).
    public var postImagesBucket: String = "post-images"

    /// The bucket of a kind of media: ``avatarBucket``, ``storiesBucket`` or ``postImagesBucket`` (by default the
    /// kind's own name, ``MediaKind/bucket``).
    public func bucket(for kind: MediaKind) -> String {
        switch kind {
        case .avatar: avatarBucket
        case .story: storiesBucket
        case .postImage: postImagesBucket
        }
    }

    /// - Throws: ``ConfigurationError`` when `url` is not an absolute http(s) URL or the
    ///   key is empty.
    public init(url: String, apiKey: String, jwtSecret: String? = nil, jwksURL: String? = nil) throws {
        self.url = try Self.projectURL(url)
        let key = apiKey.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else {
            throw ConfigurationError("SUPABASE_ANON_KEY (or SUPABASE_PUBLISHABLE_KEY) is empty")
        }
        self.apiKey = key
        self.jwtSecret = jwtSecret.flatMap { $0.isEmpty ? nil : $0 }
        if let jwksURL, !jwksURL.isEmpty {
            guard let parsed = URL(string: jwksURL), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
                throw ConfigurationError("SUPABASE_JWKS_URL is not an http(s) URL: \(jwksURL)")
            }
            self.jwksURL = parsed
        } else {
            self.jwksURL = self.url.appendingPathComponent("auth/v1/.well-known/jwks.json")
        }
    }

    /// The configuration from `SUPABASE_URL`, `SUPABASE_ANON_KEY` or `SUPABASE_PUBLISHABLE_KEY`,
    /// `SUPABASE_JWT_SECRET`, `SUPABASE_JWKS_URL`, `SUPABASE_MAX_ROWS`; nil when `SUPABASE_URL` is unset or empty
    /// (the gateway then uses the embedded store).
    /// - Throws: ``ConfigurationError`` when the URL is set but malformed or no key is set.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SupabaseConfiguration? {
        guard let url = environment["SUPABASE_URL"], !url.isEmpty else { return nil }
        guard let key = [environment["SUPABASE_ANON_KEY"], environment["SUPABASE_PUBLISHABLE_KEY"]]
            .compactMap({ $0 }).first(where: { !$0.isEmpty })
        else {
            throw ConfigurationError("SUPABASE_URL is set but SUPABASE_ANON_KEY (or SUPABASE_PUBLISHABLE_KEY) is not")
        }
        var configuration = try SupabaseConfiguration(
            url: url, apiKey: key, jwtSecret: environment["SUPABASE_JWT_SECRET"], jwksURL: environment["SUPABASE_JWKS_URL"])
        if let text = environment["SUPABASE_MAX_ROWS"], !text.isEmpty {
            guard let rows = Int(text), rows > 0 else {
                throw ConfigurationError("SUPABASE_MAX_ROWS must be a positive integer (the project's API Max Rows), got \"\(text)\"")
            }
            configuration.maxRows = rows
        }
        return configuration
    }

    /// True for a legacy key (a JWT, `eyJ...`): anonymous requests then also send it as the
    /// bearer token, as the old SDKs did. New publishable keys are not JWTs and must not be.
    public var apiKeyIsJWT: Bool { apiKey.split(separator: ".").count == 3 }

    /// `https://host[:port][/prefix]` with no trailing slash, query or fragment.
    static func projectURL(_ text: String) throws -> URL {
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else {
            throw ConfigurationError(
                "SUPABASE_URL is not a valid project URL (expected https://<project>.supabase.co): \(text)")
        }
        return url
    }
}
