import Foundation
import JWTKit
import SocialDomain

/// The claims the gateway reads from a bearer token: Supabase's access-token shape.
///
/// All are optional when decoding so that a missing claim gets its own clear 401 message from
/// ``JWTAuthenticator`` rather than a generic decoding failure; `verify` is empty because the
/// authenticator checks `exp`/`nbf`/`aud` itself, after the signature.
public struct GatewayClaims: JWTPayload, Equatable {
    /// The user id, a UUID.
    public var sub: SubjectClaim?
    public var exp: ExpirationClaim?
    public var nbf: NotBeforeClaim?
    public var iat: IssuedAtClaim?
    public var aud: AudienceClaim?
    /// Who issued the token (Supabase: `https://<project>.supabase.co/auth/v1`); checked when
    /// the server is configured with an issuer.
    public var iss: IssuerClaim?
    /// `authenticated` for signed-in users (Supabase), informational here.
    public var role: String?
    /// The session the token belongs to (Supabase Auth's and the embedded accounts'): signing out
    /// ends it.
    public var session_id: String?
    /// The account's email, as Supabase's tokens carry it.
    public var email: String?

    public init(
        sub: SubjectClaim?, exp: ExpirationClaim?, nbf: NotBeforeClaim? = nil, iat: IssuedAtClaim? = nil,
        aud: AudienceClaim? = nil, iss: IssuerClaim? = nil, role: String? = nil, session_id: String? = nil,
        email: String? = nil
    ) {
        self.session_id = session_id
        self.email = email
        self.iss = iss
        self.sub = sub
        self.exp = exp
        self.nbf = nbf
        self.iat = iat
        self.aud = aud
        self.role = role
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Signs HS256 tokens for the demo users with the dev secret (`token HANDLE`, the playground).
///
/// ```swift
/// let token = try await DevTokenIssuer(secret: secret).token(for: DemoData.aliceId)
/// ```
public struct DevTokenIssuer: Sendable {
    let keys: JWTKeyCollection
    public let audience: String
    /// The `iss` claim written into tokens (`JWT_ISSUER`), if the server checks one.
    public let issuer: String?

    public init(secret: String, audience: String = "authenticated", issuer: String? = nil) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.audience = audience
        self.issuer = issuer
    }

    /// A token for `userId`, valid from now for `ttl` seconds (default 24 h).
    /// - Throws: jwt-kit's signing errors (none expected for HMAC).
    public func token(for userId: UUID, ttl: TimeInterval = 24 * 3600, now: Date = Date(), sessionId: UUID? = nil) async throws -> String {
        let claims = GatewayClaims(
            sub: SubjectClaim(value: userId.lowercased), exp: ExpirationClaim(value: now + ttl),
            nbf: NotBeforeClaim(value: now - 1), iat: IssuedAtClaim(value: now), aud: AudienceClaim(value: [audience]),
            iss: issuer.map { IssuerClaim(value: $0) }, role: "authenticated", session_id: sessionId?.lowercased)
        return try await keys.sign(claims)
    }
}

extension DevTokenIssuer: AccessTokenSigner {
    /// Access tokens of the embedded accounts: an hour, with the session and the email, as
    /// Supabase Auth's.
    public func accessToken(userId: UUID, sessionId: UUID, email: String) async throws -> (token: String, expiresAt: Date) {
        // Whole seconds, as GoTrue writes them (a fractional `exp` trips strict parsers).
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let expires = now + 3600
        let claims = GatewayClaims(
            sub: SubjectClaim(value: userId.lowercased), exp: ExpirationClaim(value: expires),
            nbf: NotBeforeClaim(value: now - 1), iat: IssuedAtClaim(value: now), aud: AudienceClaim(value: [audience]),
            iss: issuer.map { IssuerClaim(value: $0) }, role: "authenticated", session_id: sessionId.lowercased, email: email)
        return (try await keys.sign(claims), expires)
    }
}
