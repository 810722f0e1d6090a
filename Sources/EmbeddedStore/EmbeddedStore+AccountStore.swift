import Foundation
import GRDB
import SocialDomain

/// Accounts: the embedded store is its own identity provider. Passwords are scrypt hashes
/// (``PasswordHasher``); a session is a row whose refresh tokens are stored as SHA-256, single
/// use (each refresh replaces the token; a second use of one ends its session); access tokens are
/// the gateway's own JWTs (``Options/accessTokens``). Hashing runs off the database's queue.
extension EmbeddedStore: AccountStore {
    private var signer: any AccessTokenSigner {
        get throws {
            guard let signer = options.accessTokens else { throw DomainError.accountsUnavailable }
            return signer
        }
    }

    private var nowMicros: Int64 { UnixMicroseconds.from(options.clock.now()) }

    /// The account, its profile and (with `homeZIP`) its owner details in one transaction.
    public func signUp(email: String, password: String, handle: String, homeZIP: String?) async throws -> AuthResult {
        try await call(.signUp) {
            let signer = try signer
            let salt = PasswordHasher.salt()
            let hash = try await PasswordHasher.hashed(password, salt: salt)
            let id = options.random.uuid()
            let now = nowMicros
            let (sessionId, refresh) = try await pool.write { db -> (UUID, String) in
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM accounts WHERE email = ?)", arguments: [email]) == false else {
                    throw DomainError.emailTaken
                }
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM profiles WHERE lower(handle) = ?)", arguments: [handle.lowercased()]) == false else {
                    throw DomainError.handleTaken
                }
                try db.execute(
                    sql: "INSERT INTO profiles (id, handle, is_public, created_at, updated_at) VALUES (?, ?, 1, ?, ?)",
                    arguments: [id.lowercased, handle, now, now])
                try db.execute(
                    sql: "INSERT INTO accounts (id, email, password_hash, salt, created_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id.lowercased, email, hash, salt, now])
                if let homeZIP {
                    var details = OwnerDetailChanges()
                    details.homeZIP = .set(homeZIP)
                    try Self.writeOwnerDetails(db, id: id, changes: details, at: now)
                }
                return try Self.openSession(db, account: id, now: now)
            }
            return try await Self.result(id, email: email, sessionId: sessionId, refresh: refresh, signer: signer)
        }
    }

    public func signIn(email: String, password: String) async throws -> AuthResult {
        try await call(.signIn) {
            let signer = try signer
            // Sendable values out (a Row is not): the async read, never GRDB's blocking one.
            let found = try await pool.read { db -> (String, Data, Data)? in
                try Row.fetchOne(db, sql: "SELECT id, password_hash, salt FROM accounts WHERE email = ?", arguments: [email])
                    .map { ($0[0], $0[1], $0[2]) }
            }
            guard let found, let id = UUID(parsing: found.0) else {
                // The same work as for a real account, so an unknown email is not answered faster.
                _ = try await PasswordHasher.verified(password, salt: PasswordHasher.decoy.salt, expected: PasswordHasher.decoy.hash)
                throw DomainError.invalidCredentials
            }
            guard try await PasswordHasher.verified(password, salt: found.2, expected: found.1) else { throw DomainError.invalidCredentials }
            let now = nowMicros
            let (sessionId, refresh) = try await pool.write { db in try Self.openSession(db, account: id, now: now) }
            return try await Self.result(id, email: email, sessionId: sessionId, refresh: refresh, signer: signer)
        }
    }

    public func refresh(refreshToken: String) async throws -> AuthResult {
        try await call(.refresh) {
            let signer = try signer
            let digest = RefreshTokens.digest(refreshToken)
            let now = nowMicros
            let outcome = try await pool.write { db -> Result<(UUID, String, UUID, String), DomainError> in
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT t.session_id, t.expires_at, t.used_at, s.ended_at, s.account_id, a.email FROM refresh_tokens t
                    JOIN account_sessions s ON s.id = t.session_id JOIN accounts a ON a.id = s.account_id
                    WHERE t.token_hash = ?
                    """, arguments: [digest]),
                    let sessionId = UUID(parsing: row[0] as String), let account = UUID(parsing: row[4] as String)
                else { return .failure(.sessionExpired) }
                let expires: Int64 = row[1], used: Int64? = row[2], ended: Int64? = row[3]
                if used != nil {
                    // A used token again: it was copied. End its session, so the copy and the
                    // original both stop (RFC 6819 5.2.2.3, refresh token rotation).
                    try db.execute(sql: "UPDATE account_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                                   arguments: [now, sessionId.lowercased])
                    return .failure(.sessionExpired)
                }
                guard ended == nil, expires > now else { return .failure(.sessionExpired) }
                try db.execute(sql: "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ?", arguments: [now, digest])
                let next = try Self.issueRefreshToken(db, session: sessionId, now: now)
                return .success((account, row[5], sessionId, next))
            }
            let (account, email, sessionId, next) = try outcome.get()
            return try await Self.result(account, email: email, sessionId: sessionId, refresh: next, signer: signer)
        }
    }

    public func signOut(viewer: Viewer) async throws {
        try await call(.signOut) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .signOut) }
            let session = viewer.session?.sessionId
            let now = nowMicros
            try await pool.write { db in
                // A token without a session (a demo token) ends nothing of the accounts' sessions.
                guard let session else { return }
                try db.execute(
                    sql: "UPDATE account_sessions SET ended_at = ? WHERE id = ? AND account_id = ? AND ended_at IS NULL",
                    arguments: [now, session.lowercased, me.lowercased])
            }
        }
    }

    /// There is no mail to send: the one-time link goes to ``Options/passwordResetLog`` (the
    /// server logs it at notice level); its token completes the reset with `resetPassword`.
    /// Nothing is said to the client either way.
    public func requestPasswordReset(email: String) async throws {
        try await call(.passwordReset) {
            let token = RefreshTokens.make()
            let now = nowMicros
            let created = try await pool.write { db -> Bool in
                guard let id = try String.fetchOne(db, sql: "SELECT id FROM accounts WHERE email = ?", arguments: [email]) else { return false }
                try db.execute(
                    sql: "INSERT INTO password_resets (token_hash, account_id, expires_at) VALUES (?, ?, ?)",
                    arguments: [RefreshTokens.digest(token), id, now + 3_600_000_000])
                return true
            }
            guard created else { return }
            options.passwordResetLog?(email, "\(options.publicBaseURL)/#reset-password?token=\(token)")
        }
    }

    /// The token is looked up (unused, unexpired) before the new password is hashed, so a made-up
    /// token costs one indexed read and no scrypt; the write checks it again, so two uses of one
    /// token at once still reset once. A reset uses up every outstanding link of the account.
    public func resetPassword(token: String, newPassword: String) async throws -> AuthResult {
        try await call(.passwordReset) {
            let signer = try signer
            let digest = RefreshTokens.digest(token)
            let lookedUpAt = nowMicros
            let usable = try await pool.read { db in
                try Bool.fetchOne(db, sql: """
                    SELECT EXISTS (SELECT 1 FROM password_resets WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?)
                    """, arguments: [digest, lookedUpAt]) ?? false
            }
            guard usable else { throw DomainError.sessionExpired }
            let salt = PasswordHasher.salt()
            let hash = try await PasswordHasher.hashed(newPassword, salt: salt)
            let now = nowMicros
            let outcome = try await pool.write { db -> Result<(UUID, String, UUID, String), DomainError> in
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT r.account_id, r.expires_at, r.used_at, a.email FROM password_resets r JOIN accounts a ON a.id = r.account_id
                    WHERE r.token_hash = ?
                    """, arguments: [digest]), let id = UUID(parsing: row[0] as String),
                    (row[2] as Int64?) == nil, (row[1] as Int64) > now
                else { return .failure(.sessionExpired) }
                try Self.useUpResetLinks(db, account: id, now: now)
                try db.execute(sql: "UPDATE accounts SET password_hash = ?, salt = ?, verified_at = coalesce(verified_at, ?) WHERE id = ?",
                               arguments: [hash, salt, now, id.lowercased])
                try db.execute(sql: "UPDATE account_sessions SET ended_at = ? WHERE account_id = ? AND ended_at IS NULL",
                               arguments: [now, id.lowercased])
                let (session, refresh) = try Self.openSession(db, account: id, now: now)
                return .success((id, row[3], session, refresh))
            }
            let (id, email, session, refresh) = try outcome.get()
            return try await Self.result(id, email: email, sessionId: session, refresh: refresh, signer: signer)
        }
    }

    /// Marks every unused reset link of `account` used: a reset or a password change ends them all,
    /// so an older link mailed before cannot set the password again.
    static func useUpResetLinks(_ db: Database, account: UUID, now: Int64) throws {
        try db.execute(sql: "UPDATE password_resets SET used_at = ? WHERE account_id = ? AND used_at IS NULL",
                       arguments: [now, account.lowercased])
    }

    public func account(viewer: Viewer) async throws -> Account {
        try await call(.account) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .viewAccount) }
            return try await pool.read { db in try Self.readAccount(db, me) }
        }
    }

    public func updateSettings(_ changes: AccountSettingsChanges, viewer: Viewer) async throws -> Account {
        try await call(.updateSettings) {
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .changeSettings) }
            return try await pool.write { db in
                try db.execute(
                    sql: "UPDATE accounts SET video_quality = coalesce(?, video_quality), autoplay = coalesce(?, autoplay) WHERE id = ?",
                    arguments: [changes.videoQuality?.rawValue, changes.autoplay, me.lowercased])
                return try Self.readAccount(db, me)
            }
        }
    }

    public func changePassword(current: String, new: String, viewer: Viewer) async throws -> AuthResult {
        try await call(.changePassword) {
            let signer = try signer
            guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .changePassword) }
            guard let row = try await pool.read({ db -> (hash: Data, salt: Data, email: String)? in
                try Row.fetchOne(db, sql: "SELECT password_hash, salt, email FROM accounts WHERE id = ?", arguments: [me.lowercased])
                    .map { ($0[0], $0[1], $0[2]) }
            }) else { throw DomainError.accountsUnavailable }
            guard try await PasswordHasher.verified(current, salt: row.salt, expected: row.hash) else { throw DomainError.currentPasswordIncorrect }
            let salt = PasswordHasher.salt()
            let hash = try await PasswordHasher.hashed(new, salt: salt)
            let now = nowMicros
            let (sessionId, refresh) = try await pool.write { db -> (UUID, String) in
                try db.execute(sql: "UPDATE accounts SET password_hash = ?, salt = ? WHERE id = ?", arguments: [hash, salt, me.lowercased])
                try Self.useUpResetLinks(db, account: me, now: now)
                // Every session ends, this one too: the client goes on with the new one.
                try db.execute(sql: "UPDATE account_sessions SET ended_at = ? WHERE account_id = ? AND ended_at IS NULL",
                               arguments: [now, me.lowercased])
                return try Self.openSession(db, account: me, now: now)
            }
            return try await Self.result(me, email: row.email, sessionId: sessionId, refresh: refresh, signer: signer)
        }
    }

    /// The sessions ended since `since` (sign-outs, password changes and resets end rows of
    /// `account_sessions`), each refused until an access token issued just before its end would
    /// expire (``accessTokenLifetime``). Read once at start, so a restart forgets no sign-out.
    public func recentlyEndedSessions(since: Date) async throws -> [SessionEnd] {
        let from = UnixMicroseconds.from(since)
        let rows = try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, account_id, ended_at FROM account_sessions WHERE ended_at >= ?", arguments: [from])
                .map { ($0[0] as String, $0[1] as String, $0[2] as Int64) }
        }
        return rows.compactMap { id, account, ended in
            guard let session = UUID(parsing: id), let user = UUID(parsing: account) else { return nil }
            return .session(session, user: user, until: UnixMicroseconds.date(ended).addingTimeInterval(Self.accessTokenLifetime))
        }
    }

    /// How long the access tokens of embedded sessions verify (``AccessTokenSigner``'s hour).
    public static let accessTokenLifetime: TimeInterval = 3600

    // MARK: Helpers

    static func openSession(_ db: Database, account: UUID, now: Int64) throws -> (UUID, String) {
        let session = UUID()
        try db.execute(sql: "INSERT INTO account_sessions (id, account_id, created_at) VALUES (?, ?, ?)",
                       arguments: [session.lowercased, account.lowercased, now])
        return (session, try issueRefreshToken(db, session: session, now: now))
    }

    static func issueRefreshToken(_ db: Database, session: UUID, now: Int64) throws -> String {
        let token = RefreshTokens.make()
        try db.execute(sql: "INSERT INTO refresh_tokens (token_hash, session_id, expires_at) VALUES (?, ?, ?)",
                       arguments: [RefreshTokens.digest(token), session.lowercased, now + RefreshTokens.lifetimeMicroseconds])
        return token
    }

    static func result(_ id: UUID, email: String, sessionId: UUID, refresh: String, signer: any AccessTokenSigner) async throws -> AuthResult {
        let (token, expires) = try await signer.accessToken(userId: id, sessionId: sessionId, email: email)
        return AuthResult(userId: id, session: AuthSession(accessToken: token, expiresAt: expires, refreshToken: refresh))
    }

    static func readAccount(_ db: Database, _ id: UUID) throws -> Account {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT email, display_name, created_at, verified_at, video_quality, autoplay,
              (SELECT max(s.created_at) FROM account_sessions s WHERE s.account_id = accounts.id)
            FROM accounts WHERE id = ?
            """, arguments: [id.lowercased]) else { throw DomainError.accountsUnavailable }
        // The last sign-in is the newest session: each sign-in, sign-up and reset opens one.
        return Account(
            id: id, email: row[0], storedDisplayName: row[1], createdAt: UnixMicroseconds.date(row[2]),
            isVerified: (row[3] as Int64?) != nil,
            settings: AccountSettings(videoQuality: VideoQuality(rawValue: row[4]) ?? .auto, autoplay: row[5]),
            lastLoginAt: (row[6] as Int64?).map(UnixMicroseconds.date))
    }
}
