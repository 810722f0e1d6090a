import Foundation
import SocialDomain

/// Accounts through Supabase Auth (GoTrue, `/auth/v1`), with the publishable key and the user's
/// own tokens only (never the service-role key). Settings live in `user_metadata` as seed 002
/// stores them (`video_quality`, `autoplay`, `display_name`). Error bodies are GoTrue's
/// `{"code": <status>, "error_code": "<slug>", "msg": "..."}` (supabase-wire.md §5.4).
extension SupabaseStore: AccountStore {
    /// `POST /auth/v1/signup` with `{email, password, data: {handle, home_zip?}}`: `handle_new_user`
    /// makes the profile from `data.handle` and the owner-only ZIP from `data.home_zip` (migration
    /// 001000), in GoTrue's own transaction. With email confirmation on, GoTrue answers the user
    /// without a session: the result has none.
    public func signUp(email: String, password: String, handle: String, homeZIP: String?) async throws -> AuthResult {
        try await call("signUp") {
            // The trigger falls back to a generated handle when the wanted one is taken (a sign-up
            // never fails on its profile); the gateway promises HANDLE_TAKEN, so it asks first.
            let available = SupabaseRequest(
                method: .post, service: .rest, path: "/rest/v1/rpc/handle_available",
                headers: [("Content-Type", "application/json")], body: try Self.json(["handle": handle.lowercased()]),
                idempotent: true, operation: "handleTaken")
            guard try decode(Bool.self, try await rest(available, viewer: .anonymous), "handleTaken") else { throw DomainError.handleTaken }
            var metadata = ["handle": handle]
            if let homeZIP { metadata["home_zip"] = homeZIP }
            let body = try JSONSerialization.data(withJSONObject: ["email": email, "password": password, "data": metadata])
            let data = try await auth(.post, "/auth/v1/signup", body: body, operation: "signUp")
            return try Self.authResult(data)
        }
    }

    /// `POST /auth/v1/token?grant_type=password`.
    public func signIn(email: String, password: String) async throws -> AuthResult {
        try await call("signIn") {
            let body = try JSONSerialization.data(withJSONObject: ["email": email, "password": password])
            return try Self.authResult(try await auth(.post, "/auth/v1/token", query: [("grant_type", "password")], body: body, operation: "signIn"))
        }
    }

    /// `POST /auth/v1/token?grant_type=refresh_token` (GoTrue rotates refresh tokens).
    public func refresh(refreshToken: String) async throws -> AuthResult {
        try await call("refresh") {
            let body = try JSONSerialization.data(withJSONObject: ["refresh_token": refreshToken])
            return try Self.authResult(try await auth(.post, "/auth/v1/token", query: [("grant_type", "refresh_token")], body: body, operation: "refresh"))
        }
    }

    /// `POST /auth/v1/logout?scope=local`: this session only.
    public func signOut(viewer: Viewer) async throws {
        try await call("signOut") {
            _ = try await auth(.post, "/auth/v1/logout", query: [("scope", "local")], viewer: viewer, operation: "signOut")
        }
    }

    /// `POST /auth/v1/recover`: GoTrue mails the link (and answers the same for unknown emails).
    public func requestPasswordReset(email: String) async throws {
        try await call("passwordReset") {
            let body = try JSONSerialization.data(withJSONObject: ["email": email])
            _ = try await auth(.post, "/auth/v1/recover", body: body, operation: "passwordReset")
        }
    }

    /// `POST /auth/v1/verify` with `{type: "recovery", token_hash}` (the link's token) for a
    /// session, then `PUT /auth/v1/user` with the new password as that session.
    public func resetPassword(token: String, newPassword: String) async throws -> AuthResult {
        try await call("passwordReset") {
            let verify = try JSONSerialization.data(withJSONObject: ["type": "recovery", "token_hash": token])
            let session = try Self.authResult(try await auth(.post, "/auth/v1/verify", body: verify, operation: "verifyRecovery", expired: true))
            guard let access = session.session?.accessToken else { throw DomainError.sessionExpired }
            let viewer = Viewer.user(id: session.userId, token: access)
            let update = try JSONSerialization.data(withJSONObject: ["password": newPassword])
            _ = try await auth(.put, "/auth/v1/user", body: update, viewer: viewer, operation: "setPassword")
            return session
        }
    }

    /// `GET /auth/v1/user`.
    public func account(viewer: Viewer) async throws -> Account {
        try await call("account") {
            try Self.account(try await auth(.get, "/auth/v1/user", viewer: viewer, operation: "account"))
        }
    }

    /// `PUT /auth/v1/user` with `{data: {video_quality, autoplay}}` (GoTrue merges `data` into
    /// `user_metadata`).
    public func updateSettings(_ changes: AccountSettingsChanges, viewer: Viewer) async throws -> Account {
        try await call("updateSettings") {
            var data: [String: Any] = [:]
            if let quality = changes.videoQuality { data["video_quality"] = quality.rawValue }
            if let autoplay = changes.autoplay { data["autoplay"] = autoplay }
            guard !data.isEmpty else { return try await account(viewer: viewer) }
            let body = try JSONSerialization.data(withJSONObject: ["data": data])
            return try Self.account(try await auth(.put, "/auth/v1/user", body: body, viewer: viewer, operation: "updateSettings"))
        }
    }

    /// Seed 002: re-authenticates with the current password (`grant_type=password`), sets the new
    /// one as that new session (`PUT /auth/v1/user`), then ends every other session
    /// (`POST /auth/v1/logout?scope=others`).
    public func changePassword(current: String, new: String, viewer: Viewer) async throws -> AuthResult {
        try await call("changePassword") {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .changePassword) }
            let email = try await account(viewer: viewer).email
            let signIn = try JSONSerialization.data(withJSONObject: ["email": email, "password": current])
            let fresh: AuthResult
            do {
                fresh = try Self.authResult(try await auth(.post, "/auth/v1/token", query: [("grant_type", "password")], body: signIn, operation: "reauthenticate"))
            } catch let error as DomainError where error == .invalidCredentials {
                throw DomainError.currentPasswordIncorrect
            }
            guard fresh.userId == me, let token = fresh.session?.accessToken else { throw DomainError.currentPasswordIncorrect }
            let session = Viewer.user(id: me, token: token)
            let update = try JSONSerialization.data(withJSONObject: ["password": new])
            _ = try await auth(.put, "/auth/v1/user", body: update, viewer: session, operation: "setPassword")
            _ = try await auth(.post, "/auth/v1/logout", query: [("scope", "others")], viewer: session, operation: "endOtherSessions")
            return fresh
        }
    }

    // MARK: Wire

    /// Sends a GoTrue request and returns the body of a success; maps its errors.
    /// - Parameter expired: whether a 4xx means an expired link or token (verify) rather than bad input.
    func auth(
        _ method: SupabaseRequest.Method, _ path: String, query: [(String, String)] = [], body: Data? = nil,
        viewer: Viewer = .anonymous, operation: String, expired: Bool = false
    ) async throws -> Data {
        let request = SupabaseRequest(
            method: method, service: .auth, path: path, query: query,
            headers: body == nil ? [] : [("Content-Type", "application/json")], body: body, idempotent: method == .get,
            operation: operation)
        let response = try await client.send(request, viewer: viewer)
        guard response.isSuccess else {
            let error = SupabaseErrorMapper.auth(response, operation: operation, expired: expired)
            logUpstream(request, response, as: error)
            throw error
        }
        return response.body
    }

    /// A GoTrue session answer (`access_token`, `expires_at`, `refresh_token`, `user`), or a bare
    /// user (sign-up awaiting email confirmation).
    static func authResult(_ data: Data) throws -> AuthResult {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SupabaseFailure.malformed("auth: not an object")
        }
        let user = (object["user"] as? [String: Any]) ?? object
        guard let id = (user["id"] as? String).flatMap(UUID.init(parsing:)) else { throw SupabaseFailure.malformed("auth: no user id") }
        guard let access = object["access_token"] as? String, let refresh = object["refresh_token"] as? String else {
            return AuthResult(userId: id, session: nil)
        }
        let expiresAt: Date = if let at = object["expires_at"] as? NSNumber {
            Date(timeIntervalSince1970: at.doubleValue)
        } else {
            Date(timeIntervalSinceNow: (object["expires_in"] as? NSNumber)?.doubleValue ?? 3600)
        }
        return AuthResult(userId: id, session: AuthSession(accessToken: access, expiresAt: expiresAt, refreshToken: refresh))
    }

    /// A GoTrue user as seed 002's account.
    static func account(_ data: Data) throws -> Account {
        guard let user = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let id = (user["id"] as? String).flatMap(UUID.init(parsing:)), let email = user["email"] as? String,
              let created = (user["created_at"] as? String).flatMap(UnixMicroseconds.parse)
        else { throw SupabaseFailure.malformed("auth user") }
        let metadata = user["user_metadata"] as? [String: Any] ?? [:]
        let settings = AccountSettings(
            videoQuality: (metadata["video_quality"] as? String).flatMap(VideoQuality.init(rawValue:)) ?? .auto,
            autoplay: metadata["autoplay"] as? Bool ?? true)
        let confirmed = user["email_confirmed_at"] as? String ?? user["confirmed_at"] as? String
        // GoTrue's own last_sign_in_at: user_metadata.last_login_at (the seed's) is the user's to write.
        let lastSignIn = (user["last_sign_in_at"] as? String).flatMap(UnixMicroseconds.parse).map(UnixMicroseconds.date)
        return Account(
            id: id, email: email, storedDisplayName: metadata["display_name"] as? String,
            createdAt: UnixMicroseconds.date(created), isVerified: confirmed != nil, settings: settings, lastLoginAt: lastSignIn)
    }
}
