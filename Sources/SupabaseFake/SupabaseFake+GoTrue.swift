import Crypto
import Foundation
import Hummingbird
import SocialDomain

/// The fake's Supabase Auth (GoTrue) endpoints: sign-up, password and refresh-token grants,
/// logout by scope, recovery (mail is not sent; the link's token is kept for tests), verify and
/// the user endpoints. Status codes and bodies follow GoTrue's `{"code", "error_code", "msg"}`
/// (supabase-wire.md §5.4 for `/user`; the rest inferred from GoTrue's sources and docs: 422
/// `user_already_exists`, 400 `invalid_credentials`, 400 `refresh_token_already_used`, 422
/// `same_password`, 204 for logout). Email confirmation is off, as in a local Supabase: sign-up
/// answers a session. Accounts and sessions are GoTrue's own and stay here; a sign-up's user
/// row goes into `auth.users`, whose trigger (`handle_new_user`) makes the profile, as on a
/// real project.
extension SupabaseFake {
    struct FakeAccount: Sendable {
        var id: UUID
        var email: String
        var password: String
        var createdAtMicroseconds: Int64
        var metadata: [String: String] = [:]
        var autoplay: Bool?
        var lastSignInAtMicroseconds: Int64?
    }

    struct FakeSession: Sendable {
        var user: UUID
        var active = true
    }

    func authRoute(_ request: RecordedRequest) async -> Response? {
        guard request.path.hasPrefix("/auth/v1/") else { return nil }
        let query = PostgRESTSyntax.parseQuery(request.query)
        let body = Self.arguments(GoTrueRequest.self, request) ?? GoTrueRequest()
        if request.method == "POST" && request.path == "/auth/v1/signup" { return await authSignUp(body) }
        return lock.withLock {
            switch (request.method, request.path) {
            case ("POST", "/auth/v1/token"):
                switch query.first(where: { $0.0 == "grant_type" })?.1 {
                case "password"?: return passwordGrant(body)
                case "refresh_token"?: return refreshGrant(body)
                default: return Self.goTrueError(400, "validation_failed", "unsupported_grant_type")
                }
            case ("POST", "/auth/v1/logout"): return logout(request, scope: query.first(where: { $0.0 == "scope" })?.1 ?? "global")
            case ("POST", "/auth/v1/recover"): return recover(body)
            case ("POST", "/auth/v1/verify"): return verify(body)
            case ("GET", "/auth/v1/user"): return userEndpoint(request, update: nil)
            case ("PUT", "/auth/v1/user"): return userEndpoint(request, update: body)
            default: return Self.goTrueError(404, "not_found", "Not found")
            }
        }
    }

    static func goTrueError(_ status: Int, _ code: String, _ message: String) -> Response {
        json(status, GoTrueErrorBody(code: status, error_code: code, msg: message))
    }

    /// `POST /auth/v1/signup`: the account here, its `auth.users` row (with the metadata as
    /// `raw_user_meta_data`) in the database, where `handle_new_user` makes the profile from
    /// `data.handle` and the owner-only ZIP from `data.home_zip`.
    func authSignUp(_ body: GoTrueRequest) async -> Response {
        guard let email = body.email?.lowercased(), let password = body.password else {
            return Self.goTrueError(400, "validation_failed", "Signup requires a valid password")
        }
        guard password.count >= 6 else { return Self.goTrueError(422, "weak_password", "Password should be at least 6 characters.") }
        let id = UUID()
        let reserved: Bool = lock.withLock {
            guard accountsByEmail[email] == nil else { return false }
            accountsByEmail[email] = FakeAccount(id: id, email: email, password: password, createdAtMicroseconds: tick())
            return true
        }
        guard reserved else { return Self.goTrueError(422, "user_already_exists", "User already registered") }
        var metadata: [String: String] = [:]
        for (key, value) in body.data?.values ?? [:] { if case .text(let text) = value { metadata[key] = text } }
        do {
            try await insertUser(id: id, email: email, metadata: metadata)
        } catch {
            lock.withLock { accountsByEmail[email] = nil }
            return Self.goTrueError(500, "unexpected_failure", "Database error saving new user")
        }
        return lock.withLock { Self.json(200, newSession(for: id)) }
    }

    func passwordGrant(_ body: GoTrueRequest) -> Response {
        guard let email = body.email?.lowercased(), let password = body.password,
              let account = accountsByEmail[email], account.password == password
        else { return Self.goTrueError(400, "invalid_credentials", "Invalid login credentials") }
        return Self.json(200, newSession(for: account.id))
    }

    func refreshGrant(_ body: GoTrueRequest) -> Response {
        guard let token = body.refresh_token, let entry = refreshTokens[token] else {
            return Self.goTrueError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
        }
        guard !entry.used else {
            sessions[entry.session]?.active = false
            return Self.goTrueError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
        }
        guard let session = sessions[entry.session], session.active else {
            return Self.goTrueError(400, "session_not_found", "Session not found")
        }
        refreshTokens[token]?.used = true
        return Self.json(200, sessionBody(user: session.user, session: entry.session))
    }

    func logout(_ request: RecordedRequest, scope: String) -> Response {
        guard let (user, session) = sessionCaller(request) else { return Self.goTrueError(403, "bad_jwt", "invalid JWT") }
        for (id, other) in sessions where other.user == user {
            switch scope {
            case "local" where id == session, "global": sessions[id]?.active = false
            case "others" where id != session: sessions[id]?.active = false
            default: break
            }
        }
        return Response(status: .noContent)
    }

    func recover(_ body: GoTrueRequest) -> Response {
        if let email = body.email?.lowercased(), let account = accountsByEmail[email] {
            let token = UUID().lowercased
            recoveryTokens[token] = account.id
            lastRecoveryToken = token
        }
        return Self.json(200, EmptyBody())
    }

    func verify(_ body: GoTrueRequest) -> Response {
        guard body.type == "recovery", let token = body.token_hash,
              let user = recoveryTokens.removeValue(forKey: token)
        else { return Self.goTrueError(403, "otp_expired", "Email link is invalid or has expired") }
        return Self.json(200, newSession(for: user))
    }

    func userEndpoint(_ request: RecordedRequest, update: GoTrueRequest?) -> Response {
        guard let (user, _) = sessionCaller(request) else { return Self.goTrueError(403, "session_not_found", "Session not found") }
        guard let email = accountsByEmail.first(where: { $0.value.id == user })?.key else {
            return Self.goTrueError(403, "user_not_found", "User from sub claim in JWT does not exist")
        }
        if let update {
            if let password = update.password {
                guard password != accountsByEmail[email]?.password else {
                    return Self.goTrueError(422, "same_password", "New password should be different from the old password.")
                }
                accountsByEmail[email]?.password = password
            }
            if let data = update.data {
                for (key, value) in data.values {
                    if case .text(let text) = value { accountsByEmail[email]?.metadata[key] = text }
                    if key == "autoplay", case .flag(let flag) = value { accountsByEmail[email]?.autoplay = flag }
                }
            }
        }
        guard let account = accountsByEmail[email] else { return Self.goTrueError(500, "unexpected_failure", "lost") }
        return Self.json(200, Self.userBody(account))
    }

    // MARK: Sessions

    /// The caller's user and session from a bearer token the fake signed (`session_id` claim);
    /// nil when the token is bad or its session has ended.
    func sessionCaller(_ request: RecordedRequest) -> (UUID, UUID)? {
        guard let header = request.headers["authorization"], case .success(.user(let user, _)) = Self.caller(header),
              let payload = header.split(separator: ".").dropFirst().first.flatMap({ Self.base64URLDecode($0) }),
              let claims = try? JSONDecoder().decode(JWTClaims.self, from: payload),
              let session = claims.session_id.flatMap(UUID.init(uuidString:)),
              sessions[session]?.active == true
        else { return nil }
        return (user, session)
    }

    func newSession(for user: UUID) -> GoTrueSession {
        let session = UUID()
        sessions[session] = FakeSession(user: user)
        if let email = accountsByEmail.first(where: { $0.value.id == user })?.key {
            accountsByEmail[email]?.lastSignInAtMicroseconds = tick()
        }
        return sessionBody(user: user, session: session)
    }

    func sessionBody(user: UUID, session: UUID) -> GoTrueSession {
        let refresh = UUID().lowercased.replacingOccurrences(of: "-", with: "")
        refreshTokens[refresh] = (session, false)
        let iat = Int(Date().timeIntervalSince1970)
        let exp = iat + 3600
        let email = accountsByEmail.first(where: { $0.value.id == user })?.key ?? ""
        let payload = #"{"sub":"\#(user.lowercased)","role":"authenticated","aud":"authenticated","iat":\#(iat),"exp":\#(exp),"session_id":"\#(session.lowercased)","email":"\#(email)"}"#
        let signingInput = Self.base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + Self.base64URL(Data(payload.utf8))
        let token = signingInput + "." + Self.base64URL(Self.signature(signingInput))
        return GoTrueSession(
            access_token: token, expires_in: 3600, expires_at: exp, refresh_token: refresh,
            user: accountsByEmail[email].map(Self.userBody))
    }

    static func userBody(_ account: FakeAccount) -> GoTrueUser {
        GoTrueUser(
            id: account.id.lowercased, email: account.email,
            email_confirmed_at: timestamp(account.createdAtMicroseconds), created_at: timestamp(account.createdAtMicroseconds),
            last_sign_in_at: account.lastSignInAtMicroseconds.map(timestamp),
            user_metadata: GoTrueUser.Metadata(text: account.metadata, autoplay: account.autoplay))
    }

    /// The token of the last recovery link "mailed" (for tests: the mail a user would open).
    public var recoveryLinkToken: String? { lock.withLock { lastRecoveryToken } }
}
