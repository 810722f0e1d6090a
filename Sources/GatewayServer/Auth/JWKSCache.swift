import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JWTKit
import Logging
import SocialDomain
import Synchronization

/// The public keys of an issuer's JWKS (Supabase: `<project>/auth/v1/.well-known/jwks.json`),
/// for ES256/RS256 tokens: fetched at start, again every ``refreshInterval`` in the background,
/// and at once when a token names a key id we do not know (keys rotate), at most every 30 s.
///
/// At most one fetch is ever in flight: every caller that needs one while it runs waits for
/// that same fetch, and the decision to start one is taken under the lock that records it, so
/// a burst of tokens with random key ids costs the issuer one request per gap, not one each.
///
/// ```swift
/// let cache = JWKSCache(url: jwksURL)
/// try await cache.refresh()            // start-up: fail fast on a wrong URL
/// let keys = try await cache.keys(forKeyID: "abc")
/// ```
public final class JWKSCache: Sendable {
    /// Loads the JWKS document; URLSession by default, a closure in tests.
    public typealias Fetch = @Sendable (URL) async throws -> Data

    public let url: URL
    public let refreshInterval: Duration
    let fetch: Fetch
    let logger: Logger
    /// Shortest gap between two fetches triggered by unknown key ids (a flood of forged kids must
    /// not become a flood of requests to the issuer).
    let minimumRefetchGap: Duration = .seconds(30)

    struct State {
        var keys = JWTKeyCollection()
        var keyIDs: Set<String> = []
        var fetchedAt: ContinuousClock.Instant?
        var lastAttempt: ContinuousClock.Instant?
        /// The fetch in flight, which every caller needing one joins.
        var inFlight: Task<Void, Never>?
    }
    let state = Mutex(State())

    public init(url: URL, refreshInterval: Duration = .seconds(600), logger: Logger = Logger(label: "social-gateway.jwks"), fetch: Fetch? = nil) {
        self.url = url
        self.refreshInterval = refreshInterval
        self.logger = logger
        self.fetch = fetch ?? Self.urlSessionFetch
    }

    /// Fetches the JWKS now and replaces the keys.
    /// - Throws: ``ConfigurationError`` naming the URL when it cannot be fetched or parsed.
    public func refresh() async throws {
        state.withLock { $0.lastAttempt = .now }
        let data: Data
        do {
            data = try await fetch(url)
        } catch {
            throw ConfigurationError("cannot fetch the JWKS at \(url.absoluteString): \(error)")
        }
        let jwks: JWKS
        do {
            jwks = try JSONDecoder().decode(JWKS.self, from: data)
        } catch {
            throw ConfigurationError("the JWKS at \(url.absoluteString) is not a JSON Web Key Set: \(error)")
        }
        let keys = JWTKeyCollection()
        var ids: Set<String> = []
        for jwk in jwks.keys where jwk.keyType == .ecdsa || jwk.keyType == .rsa {
            guard let kid = jwk.keyIdentifier else { continue }
            do {
                try await keys.add(jwk: jwk, isDefault: false)
                ids.insert(kid.string)
            } catch {
                logger.warning("skipping an unusable key of the JWKS", metadata: ["kid": "\(kid.string)", "error": "\(error)"])
            }
        }
        state.withLock {
            $0.keys = keys
            $0.keyIDs = ids
            $0.fetchedAt = .now
        }
        logger.debug("JWKS loaded", metadata: ["keys": "\(ids.count)"])
    }

    /// The key collection that can verify a token with this key id.
    /// - Throws: ``GatewayHTTPError/unauthenticated(_:)`` when the key id is unknown even after a refetch.
    func keys(forKeyID keyID: String?) async throws(GatewayHTTPError) -> JWTKeyCollection {
        guard let keyID else { throw .unauthenticated("The token has no key id (kid) to verify it with.") }
        let (known, keys, stale, mayRefetch) = state.withLock { state in
            let now = ContinuousClock.now
            let stale = state.fetchedAt.map { now - $0 > refreshInterval } ?? true
            let mayRefetch = state.lastAttempt.map { now - $0 > minimumRefetchGap } ?? true
            return (state.keyIDs.contains(keyID), state.keys, stale, mayRefetch)
        }
        if known {
            if stale { _ = sharedFetch(onlyAfterGap: false) }
            return keys
        }
        if mayRefetch, let fetch = sharedFetch(onlyAfterGap: true) {
            await fetch.value
            let (nowKnown, fresh) = state.withLock { ($0.keyIDs.contains(keyID), $0.keys) }
            if nowKnown { return fresh }
        }
        throw .unauthenticated("The token was signed with an unknown key (kid).")
    }

    /// The fetch in flight, or a new one; nil when `onlyAfterGap` and the last attempt is more
    /// recent than ``minimumRefetchGap``. Decided and recorded under one lock, so two callers can
    /// never both start a fetch.
    func sharedFetch(onlyAfterGap: Bool) -> Task<Void, Never>? {
        state.withLock { state in
            if let running = state.inFlight { return running }
            let now = ContinuousClock.now
            if onlyAfterGap, let last = state.lastAttempt, now - last <= minimumRefetchGap { return nil }
            state.lastAttempt = now
            let task = Task {
                do {
                    try await self.refresh()
                } catch {
                    self.logger.warning("JWKS refresh failed", metadata: ["error": "\(error)"])
                }
                self.state.withLock { $0.inFlight = nil }
            }
            state.inFlight = task
            return task
        }
    }

    static let urlSessionFetch: Fetch = { url in
        var request = URLRequest(url: url, timeoutInterval: 5)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await URLSession.shared.data(for: request)
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw ConfigurationError("HTTP \(http.statusCode)")
        }
        return data
    }
}
