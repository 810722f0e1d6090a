import Foundation

/// A signed-in viewer's session: what the server read from the bearer token it verified, read
/// once and carried with the request to every layer.
///
/// Why: the token used to be decoded again wherever a layer needed something from it (the
/// PostgreSQL store's `request.jwt.claims`, the session a sign-out ends, a subscription's
/// identity), each with its own parser and its own cache to hide the cost (issue 53). Now the
/// authenticator makes one `Session` per verified token (kept with its verification, so a
/// client's repeated token is not read again) and the rest read its fields.
///
/// Only a verified token may become a session: a store trusts ``claimsJSON`` as PostgREST trusts
/// a JWT it verified.
///
/// ```swift
/// let viewer = Viewer.user(Session(userId: id, verifiedToken: token))
/// viewer.session?.sessionId   // what signing out ends
/// ```
public final class Session: Sendable, Hashable {
    /// The user the token's `sub` names.
    public let userId: UUID
    /// The raw token, for a backend that checks it itself (Supabase); never logged.
    public let token: String
    /// The token's `session_id`: the session signing out ends.
    public let sessionId: UUID?
    /// The token's `iat`: a password change ends the sessions issued before it.
    public let issuedAt: Date?
    /// The token's `exp`.
    public let expiresAt: Date?
    /// The token's claims as JSON (keys sorted), with `sub` and `role` as the server decided them
    /// (`authenticated`, whatever the token said): what PostgreSQL's `request.jwt.claims` is set
    /// to, as PostgREST sets it, so that `auth.uid()` and the policies read the same.
    public let claimsJSON: String

    /// The session of `token`, whose signature and claims the caller verified, for user `userId`.
    public init(userId: UUID, verifiedToken token: String) {
        self.userId = userId
        self.token = token
        guard var claims = Self.payload(of: token) else {
            // Not a JWT (a demo token): the user's sub and role alone, without a JSON writer.
            sessionId = nil
            issuedAt = nil
            expiresAt = nil
            claimsJSON = #"{"role":"authenticated","sub":"\#(userId.lowercased)"}"#
            return
        }
        sessionId = (claims["session_id"] as? String).flatMap { UUID(parsing: $0) }
        issuedAt = (claims["iat"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        expiresAt = (claims["exp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        claims["sub"] = userId.lowercased
        claims["role"] = "authenticated"
        let data = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"role":"authenticated","sub":"\#(userId.lowercased)"}"#.utf8)
        claimsJSON = String(decoding: data, as: UTF8.self)
    }

    /// The JSON object in a compact JWS's payload segment, or nil when it has none (or a huge one).
    static func payload(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].utf8.count <= 16_384 else { return nil }
        // base64url as JWS writes it; padded or standard base64 read too, as PostgREST would.
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 = String(base64.prefix { $0 != "=" })
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Two sessions are the same when they are the same user's same token.
    public static func == (lhs: Session, rhs: Session) -> Bool {
        lhs === rhs || (lhs.userId == rhs.userId && lhs.token == rhs.token)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(userId)
        hasher.combine(token)
    }
}
