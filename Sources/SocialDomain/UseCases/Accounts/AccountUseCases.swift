import Foundation

/// Signs up (seed 004 `AuthService.signUp`): the account, then its profile with `handle` and,
/// optionally, the owner-only home ZIP (seed 000 `createProfile(handle, homeZIP)`), so the new
/// user can use every other mutation at once.
public struct SignUp: Sendable {
    public let accounts: any AccountStore
    public let limits: AccountLimits
    public init(accounts: any AccountStore, limits: AccountLimits) {
        self.accounts = accounts
        self.limits = limits
    }

    /// - Parameters:
    ///   - homeZIP: checked by ``HomeZIPRule`` (trimmed; empty means none) with the other input,
    ///     before anything is counted, hashed or created.
    /// - Throws: `BAD_USER_INPUT` (email, password, handle, homeZIP), `EMAIL_TAKEN`, `HANDLE_TAKEN`,
    ///   `TOO_MANY_REQUESTS` (per client address), `BACKEND_UNAVAILABLE`.
    public func execute(
        email: String, password: String, handle: String, homeZIP: String? = nil, clientAddress: String?
    ) async throws -> AuthResult {
        let address = "signup:\(AddressGroup.key(clientAddress) ?? "unknown")"
        try limits.signUpsPerAddress.check(address)
        let email = try AccountRules.email(email)
        try AccountRules.password(password)
        guard HandleRule.isValid(handle) else { throw DomainError.invalidHandle }
        let zip = try homeZIP.flatMap(HomeZIPRule.validated)
        // Checked first so that bad input is answered without counting; reserved (checked and
        // counted at once) before the password is hashed.
        try limits.signUpsPerAddress.reserve(address)
        return try await backend { try await accounts.signUp(email: email, password: password, handle: handle, homeZIP: zip) }
    }
}

/// Signs in (seed 004 `AuthService.signIn`). Failures say one thing ("Invalid email or password")
/// whether the email has an account or not, and the store takes the same time for both.
///
/// Limits (``AccountLimits``), each reserved before the password is hashed so that concurrent
/// guesses cannot outrun them: 20 tries a minute per client address; 5 failures a minute per
/// email and address; 100 failures in 10 minutes per email. A flood from one address therefore
/// never locks the owner out of signing in from another.
public struct SignIn: Sendable {
    public let accounts: any AccountStore
    public let limits: AccountLimits
    public init(accounts: any AccountStore, limits: AccountLimits) {
        self.accounts = accounts
        self.limits = limits
    }

    public func execute(email text: String, password: String, clientAddress: String?) async throws -> AuthResult {
        let address = AddressGroup.key(clientAddress) ?? "unknown"
        try limits.signInsPerAddress.reserve("signin:\(address)")
        // A malformed email or an empty password cannot be right: the same answer as a wrong one.
        guard let email = try? AccountRules.email(text), !password.isEmpty,
              password.count <= AccountRules.maxPasswordLength else { throw DomainError.invalidCredentials }
        let pair = "email:\(email) address:\(address)", alone = "email:\(email)"
        try limits.failedSignInsPerEmailAndAddress.reserve(pair)
        do {
            try limits.failedSignInsPerEmail.reserve(alone)
        } catch {
            limits.failedSignInsPerEmailAndAddress.release(pair)
            throw error
        }
        do {
            let result = try await backend { try await accounts.signIn(email: email, password: password) }
            // A success forgets this address's failures, and takes back its own reservation of
            // the per-email count (other addresses' failures stay counted).
            limits.failedSignInsPerEmailAndAddress.reset(pair)
            limits.failedSignInsPerEmail.release(alone)
            return result
        } catch let error as DomainError where error == .invalidCredentials {
            throw error
        } catch {
            // Not a wrong password (the store failed): the attempt does not count.
            limits.failedSignInsPerEmailAndAddress.release(pair)
            limits.failedSignInsPerEmail.release(alone)
            throw error
        }
    }
}

/// Trades a refresh token for a new session (the token is used up).
public struct RefreshSession: Sendable {
    public let accounts: any AccountStore
    public init(accounts: any AccountStore) { self.accounts = accounts }

    public func execute(refreshToken: String) async throws -> AuthResult {
        guard !refreshToken.isEmpty, refreshToken.utf8.count <= 512 else { throw DomainError.sessionExpired }
        return try await backend { try await accounts.refresh(refreshToken: refreshToken) }
    }
}

/// Signs out (seed 004 `AuthService.signOut`): the session's refresh token stops working, and
/// so does its access token, at once, on every replica (``EndedSessions``).
public struct SignOut: Sendable {
    public let accounts: any AccountStore
    public let sessions: EndedSessions?
    public init(accounts: any AccountStore, sessions: EndedSessions? = nil) {
        self.accounts = accounts
        self.sessions = sessions
    }

    public func execute(viewer: Viewer) async throws {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .signOut) }
        try await backend { try await accounts.signOut(viewer: viewer) }
        // A token without a session (a demo token) has no session to end.
        if let sessions, let claims = viewer.token.flatMap(VerifiedTokenClaims.init(token:)), let id = claims.sessionId {
            await sessions.record(.session(id, user: me, until: claims.expiresAt ?? Date().addingTimeInterval(sessions.retention)))
        }
    }
}

/// Starts a password reset (seed 004 `AuthService.resetPassword`); answers the same whether the
/// email has an account or not. 5 a minute per client address.
public struct RequestPasswordReset: Sendable {
    public let accounts: any AccountStore
    public let limits: AccountLimits
    public init(accounts: any AccountStore, limits: AccountLimits) {
        self.accounts = accounts
        self.limits = limits
    }

    public func execute(email: String, clientAddress: String?) async throws {
        try limits.signUpsPerAddress.reserve("signup:\(AddressGroup.key(clientAddress) ?? "unknown")")
        let email = try AccountRules.email(email)
        try await backend { try await accounts.requestPasswordReset(email: email) }
    }
}

/// Completes a password reset with the token of its link: the new password's rules, then the
/// token (single use, an hour; the store looks it up before it hashes anything). 10 tries a
/// minute per client address. Every session of the account ends, access tokens included.
public struct ResetPassword: Sendable {
    public let accounts: any AccountStore
    public let limits: AccountLimits
    public let sessions: EndedSessions?
    public init(accounts: any AccountStore, limits: AccountLimits = AccountLimits(), sessions: EndedSessions? = nil) {
        self.accounts = accounts
        self.limits = limits
        self.sessions = sessions
    }

    public func execute(token: String, newPassword: String, clientAddress: String? = nil) async throws -> AuthResult {
        try limits.resetsPerAddress.reserve("reset:\(AddressGroup.key(clientAddress) ?? "unknown")")
        try AccountRules.password(newPassword, field: "newPassword")
        guard !token.isEmpty, token.utf8.count <= 512 else { throw DomainError.sessionExpired }
        let result = try await backend { try await accounts.resetPassword(token: token, newPassword: newPassword) }
        await sessions?.endAll(of: result)
        return result
    }
}

extension EndedSessions {
    /// Ends every session of `result`'s account but the one `result` opened.
    func endAll(of result: AuthResult) async {
        let kept = result.session.flatMap { VerifiedTokenClaims(token: $0.accessToken) }?.sessionId
        await record(.allSessions(of: result.userId, changedAt: Date(), except: kept))
    }
}

/// The viewer's account (seed 002).
public struct GetAccount: Sendable {
    public let accounts: any AccountStore
    public init(accounts: any AccountStore) { self.accounts = accounts }

    public func execute(viewer: Viewer) async throws -> Account {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .viewAccount) }
        return try await backend { try await accounts.account(viewer: viewer) }
    }
}

/// Changes the viewer's settings (seed 002: each setting on its own).
public struct UpdateSettings: Sendable {
    public let accounts: any AccountStore
    public init(accounts: any AccountStore) { self.accounts = accounts }

    public func execute(_ changes: AccountSettingsChanges, viewer: Viewer) async throws -> Account {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: .changeSettings) }
        return try await backend { try await accounts.updateSettings(changes, viewer: viewer) }
    }
}

/// Changes the password (seed 002): its checks and messages first, then the current password is
/// verified by the identity provider; every other session ends, access tokens included.
/// Wrong current passwords are limited like failed sign-ins (5 a minute per account, reserved
/// before the hash): a stolen access token must not become a way to guess the password.
public struct ChangePassword: Sendable {
    public let accounts: any AccountStore
    public let limits: AccountLimits
    public let sessions: EndedSessions?
    public init(accounts: any AccountStore, limits: AccountLimits = AccountLimits(), sessions: EndedSessions? = nil) {
        self.accounts = accounts
        self.limits = limits
        self.sessions = sessions
    }

    public func execute(current: String, new: String, confirm: String, viewer: Viewer) async throws -> AuthResult {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: .changePassword) }
        try AccountRules.passwordChange(current: current, new: new, confirm: confirm)
        let key = "account:\(me.lowercased)"
        try limits.wrongCurrentPasswordsPerAccount.reserve(key)
        let result: AuthResult
        do {
            result = try await backend { try await accounts.changePassword(current: current, new: new, viewer: viewer) }
        } catch let error as DomainError where error == .currentPasswordIncorrect {
            throw error
        } catch {
            limits.wrongCurrentPasswordsPerAccount.release(key)
            throw error
        }
        limits.wrongCurrentPasswordsPerAccount.reset(key)
        await sessions?.endAll(of: result)
        return result
    }
}
