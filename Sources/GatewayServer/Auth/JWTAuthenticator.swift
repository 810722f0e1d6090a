import Foundation
import GraphQLEngine
import JWTKit
import SocialDomain

/// Turns an `Authorization` header into the request's ``Viewer``: no header is an anonymous
/// request; a bearer token must verify, or the request is refused with 401 `UNAUTHENTICATED`
/// (a bad token never silently becomes an anonymous request).
///
/// Accepted tokens: HS256 with a shared secret (the embedded dev secret, or Supabase's legacy
/// `SUPABASE_JWT_SECRET`) and ES256/RS256 from a JWKS (Supabase's asymmetric keys). The header's
/// `alg` is checked against that list before any key is looked up, so `alg: none` and algorithm
/// confusion (an RS256 key used as an HMAC secret) cannot get through. After the signature,
/// `exp` (required), `nbf` and `aud` are checked with a small clock leeway, `iss` when an issuer
/// is configured, and `sub` must be a UUID (compared lower-cased). Last, a token of a session
/// that ended through the gateway (``SocialDomain/EndedSessions``) is refused, without a store call. An HS256 secret shorter than
/// ``minimumSecretBytes`` is refused before any of this (``checkSecret(_:variable:)``). The raw token goes into ``Viewer/user(id:token:)`` for the
/// Supabase store to forward; it is never logged.
///
/// ```swift
/// let auth = await JWTAuthenticator(hmacSecret: secret, jwks: nil, audience: "authenticated")
/// let viewer = try await auth.viewer(authorization: request.headers[.authorization])
/// ```
public struct JWTAuthenticator: Sendable {
    let hmacKeys: JWTKeyCollection?
    let jwks: JWKSCache?
    public let audience: String
    /// The required `iss` claim, if any (`JWT_ISSUER`).
    public let issuer: String?
    /// Allowed clock difference with the issuer for `exp` and `nbf`.
    public let leeway: TimeInterval
    let now: @Sendable () -> Date
    /// Signatures verified lately (see ``VerifiedTokens``): the claims are checked again on every use.
    let verified = VerifiedTokens()
    /// Sessions ended through the gateway: their tokens are refused although they verify.
    let endedSessions: EndedSessions?

    public init(
        hmacSecret: String?, jwks: JWKSCache?, audience: String, issuer: String? = nil, leeway: TimeInterval = 30,
        endedSessions: EndedSessions? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) async {
        self.issuer = issuer
        self.endedSessions = endedSessions
        if let hmacSecret {
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: hmacSecret), digestAlgorithm: .sha256)
            hmacKeys = keys
        } else {
            hmacKeys = nil
        }
        self.jwks = jwks
        self.audience = audience
        self.leeway = leeway
        self.now = now
    }

    /// The algorithms this server verifies, for error messages.
    var acceptedAlgorithms: [String] {
        (hmacKeys == nil ? [] : ["HS256"]) + (jwks == nil ? [] : ["ES256", "RS256"])
    }

    /// The viewer for an `Authorization` header value.
    /// - Throws: ``GatewayHTTPError/unauthenticated(_:)`` with the reason.
    public func viewer(authorization: String?) async throws(GatewayHTTPError) -> Viewer {
        guard let authorization else { return .anonymous }
        let token: String
        let isBlank = { (byte: UInt8?) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        if authorization.utf8.starts(with: "Bearer ".utf8), authorization.utf8.count > 7, !isBlank(authorization.utf8.last),
           !isBlank(authorization.utf8.dropFirst(7).first) {
            // What clients send: split without lower-casing and trimming copies (issue #17).
            token = String(authorization.utf8.dropFirst(7))!
        } else {
            let parts = authorization.trimmingSpaces.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                throw .unauthenticated("The Authorization header must be \"Bearer <token>\".")
            }
            token = parts[1].trimmingSpaces
        }
        if let entry = verified.entry(for: token, now: now()) { return .user(try check(entry.claims, session: entry.session)) }
        let header = try Self.header(of: token)
        let keys: JWTKeyCollection
        switch header.alg {
        case "HS256" where hmacKeys != nil:
            keys = hmacKeys!
        case "ES256" where jwks != nil, "RS256" where jwks != nil:
            keys = try await jwks!.keys(forKeyID: header.kid)
        default:
            throw .unauthenticated(
                "Tokens signed with \"\(header.alg)\" are not accepted; this server accepts "
                    + acceptedAlgorithms.joined(separator: ", ") + ".")
        }
        let claims: GatewayClaims
        do {
            claims = try await keys.verify(token, as: GatewayClaims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .unauthenticated("The token's signature is invalid.")
        } catch {
            throw .unauthenticated("The token is malformed.")
        }
        // Checked before its session is read: a token refused costs no more than its verification.
        let id = try check(claims)
        let session = Session(userId: id, verifiedToken: token)
        verified.remember(token, claims: claims, session: session, now: now())
        return .user(session)
    }

    /// The shortest HS256 secret accepted: 256 bits, as RFC 7518 §3.2 requires for HS256 (and
    /// as jwt-kit asserts, by trapping in debug builds).
    public static let minimumSecretBytes = 32

    /// Refuses a secret too short to sign with, naming the variable it came from.
    /// - Throws: ``ConfigurationError``.
    public static func checkSecret(_ secret: String, variable: String) throws {
        let bytes = secret.utf8.count
        guard bytes >= minimumSecretBytes else {
            throw ConfigurationError(
                "\(variable) is \(bytes) bytes long; an HS256 secret must be at least \(minimumSecretBytes) bytes "
                    + "(256 bits). Generate one with `openssl rand -hex 32`.")
        }
    }

    /// `exp`, `nbf`, `aud`, `iss`, `sub`, in that order, and that the session has not ended; the
    /// user id.
    func check(_ claims: GatewayClaims) throws(GatewayHTTPError) -> UUID {
        let now = now()
        guard let exp = claims.exp else { throw .unauthenticated("The token has no expiry (exp).") }
        guard exp.value.addingTimeInterval(leeway) > now else { throw .unauthenticated("The token has expired.") }
        if let nbf = claims.nbf, nbf.value.addingTimeInterval(-leeway) > now {
            throw .unauthenticated("The token is not valid yet (nbf).")
        }
        guard let aud = claims.aud, aud.value.contains(audience) else {
            throw .unauthenticated("The token's audience (aud) is not \"\(audience)\".")
        }
        if let issuer, claims.iss?.value != issuer {
            throw .unauthenticated("The token's issuer (iss) is not \"\(issuer)\".")
        }
        guard let sub = claims.sub?.value, let id = UUID(parsing: sub) else {
            throw .unauthenticated("The token's subject (sub) is not a user id.")
        }
        if let endedSessions,
           endedSessions.isEnded(user: id, session: claims.session_id.flatMap { UUID(parsing: $0) }, issuedAt: claims.iat?.value) {
            // Signed out, or a password change or reset ended every older session.
            throw .unauthenticated(DomainError.sessionExpired.message)
        }
        return id
    }

    /// ``check(_:)`` of a token verified before: its kept session.
    func check(_ claims: GatewayClaims, session: Session) throws(GatewayHTTPError) -> Session {
        _ = try check(claims)
        return session
    }

    /// The fields of a JOSE header we decide on before verifying.
    struct Header {
        var alg: String
        var kid: String?
    }

    /// Decodes the first segment of a compact JWS.
    static func header(of token: String) throws(GatewayHTTPError) -> Header {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let bytes = Base64URL.decode(segments[0]),
              case .object(let object)? = try? JSONParser.parse(bytes)
        else {
            throw .unauthenticated("The bearer token is not a JSON Web Token.")
        }
        guard case .string(let alg)? = object["alg"] else { throw .unauthenticated("The token header has no algorithm (alg).") }
        return Header(alg: alg, kid: object["kid"]?.stringValue)
    }
}
