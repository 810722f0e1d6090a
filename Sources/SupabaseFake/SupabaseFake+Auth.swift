import Crypto
import Foundation
import SocialDomain

/// Bearer tokens as a legacy (HS256) Supabase project issues and checks them: the fake signs
/// with ``SupabaseFake/jwtSecret`` and refuses a token whose signature, `sub` or `exp` is wrong,
/// with PostgREST's codes, so a gateway that forwarded the wrong token would be caught.
extension SupabaseFake {
    /// Who a request runs as: `anon`, or `authenticated` with the token's `sub` and its whole
    /// claim set (what PostgREST puts in `request.jwt.claims`).
    enum Caller: Sendable {
        case anon
        case user(UUID, claims: String)

        /// The role PostgREST switches to.
        var role: String {
            switch self {
            case .anon: "anon"
            case .user: "authenticated"
            }
        }

        /// `request.jwt.claims`: the token's payload, or the anon role's.
        var claims: String {
            switch self {
            case .anon: #"{"role":"anon"}"#
            case .user(_, let claims): claims
            }
        }

        var isAuthenticated: Bool {
            if case .user = self { true } else { false }
        }
    }

    struct AuthFailure: Error { var code: String; var message: String }

    /// An HS256 access token for `user` signed with ``jwtSecret``, in Supabase's shape
    /// (`sub`, `role`, `aud: authenticated`, `iat` now, `exp` one hour ahead, or a minute ago if `expired`).
    public static func token(for user: UUID, expired: Bool = false, sessionId: UUID? = nil) -> String {
        let iat = Int(Date().timeIntervalSince1970)
        let exp = iat + (expired ? -60 : 3600)
        let session = sessionId.map { #","session_id":"\#($0.lowercased)""# } ?? ""
        let payload = #"{"sub":"\#(user.lowercased)","role":"authenticated","aud":"authenticated","iat":\#(iat),"exp":\#(exp)\#(session)}"#
        let signingInput = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + base64URL(Data(payload.utf8))
        return signingInput + "." + base64URL(signature(signingInput))
    }

    static func signature(_ signingInput: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: SymmetricKey(data: Data(jwtSecret.utf8))))
    }

    static func base64URL(_ data: Data) -> String { Base64URL.encode(Array(data)) }

    static func base64URLDecode(_ text: Substring) -> Data? { Base64URL.decode(text).map { Data($0) } }

    /// The caller of an `Authorization` header: none or the project key is `anon`; a token must
    /// be HS256, signed with ``jwtSecret``, unexpired, with a UUID `sub`.
    static func caller(_ authorization: String?) -> Result<Caller, AuthFailure> {
        guard let authorization else { return .success(.anon) }
        guard authorization.hasPrefix("Bearer ") else { return .failure(AuthFailure(code: "PGRST301", message: "Invalid authorization header")) }
        let token = String(authorization.dropFirst(7))
        if token == apiKey { return .success(.anon) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .failure(AuthFailure(code: "PGRST301", message: "Expected 3 parts in JWT; got \(parts.count)"))
        }
        guard let header = base64URLDecode(parts[0]).flatMap({ try? JSONDecoder().decode(JWTHeader.self, from: $0) }),
              header.alg == "HS256",
              base64URLDecode(parts[2]) == signature(parts[0] + "." + parts[1])
        else { return .failure(AuthFailure(code: "PGRST301", message: "JWSError JWSInvalidSignature")) }
        guard let payload = base64URLDecode(parts[1]),
              let claims = try? JSONDecoder().decode(JWTClaims.self, from: payload),
              let sub = UUID(uuidString: claims.sub)
        else { return .failure(AuthFailure(code: "PGRST301", message: "JWT claims are invalid")) }
        guard claims.exp > Date().timeIntervalSince1970 else { return .failure(AuthFailure(code: "PGRST303", message: "JWT expired")) }
        guard claims.role == nil || claims.role == "authenticated" else {
            return .failure(AuthFailure(code: "PGRST301", message: "the fake takes user tokens only (role authenticated)"))
        }
        return .success(.user(sub, claims: String(decoding: payload, as: UTF8.self)))
    }
}
