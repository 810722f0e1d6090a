import Foundation

// The fake's Supabase Auth (GoTrue) bodies. SupabaseStore reads GoTrue's answers field by field
// (no SupabaseSchema types), so these are GoTrue's own shapes, written out here: what the fake
// answers and reads is named and typed, not assembled as dictionaries.

/// A GoTrue request body: every endpoint's fields, each optional, since each endpoint reads its
/// own and a missing one is that endpoint's error to answer (as GoTrue's validation does).
struct GoTrueRequest: Decodable {
    var email: String?
    var password: String?
    var refresh_token: String?
    var type: String?
    var token_hash: String?
    /// `user_metadata`: sign-up's `handle`, `PUT /user`'s settings (text, and `autoplay` a Boolean).
    var data: GoTrueMetadata?
}

/// GoTrue's error body.
struct GoTrueErrorBody: Encodable {
    var code: Int
    var error_code: String
    var msg: String
}

/// A session: the tokens, and the user when the account still exists.
struct GoTrueSession: Encodable {
    var access_token: String
    var token_type = "bearer"
    var expires_in: Int
    var expires_at: Int
    var refresh_token: String
    var user: GoTrueUser?
}

/// A user as GoTrue returns it (an email account, confirmed at sign-up).
struct GoTrueUser: Encodable {
    var id: String
    var aud = "authenticated"
    var role = "authenticated"
    var email: String
    var email_confirmed_at: String
    var created_at: String
    /// GoTrue's time of the last sign-in (a password grant, a sign-up with a session, a recovery).
    var last_sign_in_at: String?
    var user_metadata: Metadata
    var app_metadata = AppMetadata()

    struct AppMetadata: Encodable { var provider = "email" }

    /// Text settings under their own keys, and `autoplay` when set (the one Boolean setting).
    struct Metadata: Encodable {
        var text: [String: String]
        var autoplay: Bool?

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for (key, value) in text where !(key == "autoplay" && autoplay != nil) {
                try c.encode(value, forKey: Key(stringValue: key))
            }
            if let autoplay { try c.encode(autoplay, forKey: Key(stringValue: "autoplay")) }
        }
    }
}

/// `{}`: the recovery endpoint's answer, whether or not the address has an account.
struct EmptyBody: Encodable {}

/// The parts of a bearer token the fake checks: the header's algorithm, and the claims.
struct JWTHeader: Decodable { var alg: String }

struct JWTClaims: Decodable {
    var sub: String
    var exp: Double
    var role: String?
    var session_id: String?
}
