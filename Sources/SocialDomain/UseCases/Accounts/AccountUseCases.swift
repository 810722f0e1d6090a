import Foundation

/// Signs up (seed 004 `AuthService.signUp`): the account, then its profile with `handle`, so the
/// new user can use every other mutation at once.
public struct SignUp: Sendable {
    public let accounts: any AccountStore
    public let limits: AccountLimits
    public init(accounts: any AccountStore, limits: AccountLimits) {
        self.accounts = accounts
        self.limits = limits
    }

    /// - Throws: `BAD_USER_INPUT` (email, password, handle), `EMAIL_TAKEN`, `HANDLE_TAKEN`,
    ///   `TOO_MANY_REQUESTS` (per client address), `BACKEND_UNAVAILABLE`.
    public func execute(email: String, password: String, handle: String, clientAddress: String?) async throws -> AuthResult {
        let address = "signup:\(clientAddress ?? "unknown")"
        try limits.signUpsPerAddress.check(address)
        let email = try AccountRules.email(email)
        try AccountRules.password(password)
        guard HandleRule.isValid(handle) else { throw DomainError.badUserInput("Invalid handle: \(HandleRule.requirement)", field: "handle") }
        limits.signUpsPerAddress.record(address)
        return try await backend { try await accounts.signUp(email: email, password: password, handle: handle) }
    }
}

/// Signs in (seed 004 `AuthService.signIn`). Failures say one thing ("Invalid email or password")
/// whether the email has an account or not, and the store takes the same time for both; 5 failed
/// tries a minute per email and 20 tries a minute per client address, then `TOO_MANY_REQUESTS`.
public struct SignIn: Sendable {
    public let accounts: any AccountStore
    public let limits: AccountLimits
    public init(accounts: any AccountStore, limits: AccountLimits) {
        self.accounts = accounts
        self.limits = limits
    }

    public func execute(email text: String, password: String, clientAddress: String?) async throws -> AuthResult {
        let address = "signin:\(clientAddress ?? "unknown")"
        try limits.signInsPerAddress.check(address)
        limits.signInsPerAddress.record(address)
        // A malformed email or an empty password cannot be right: the same answer as a wrong one.
        guard let email = try? AccountRules.email(text), !password.isEmpty,
              password.count <= AccountRules.maxPasswordLength else { throw DomainError.invalidCredentials }
        let key = "email:\(email)"
        try limits.failedSignInsPerEmail.check(key)
        do {
            let result = try await backend { try await accounts.signIn(email: email, password: password) }
            limits.failedSignInsPerEmail.reset(key)
            return result
        } catch let error as DomainError where error == .invalidCredentials {
            limits.failedSignInsPerEmail.record(key)
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

/// Signs out (seed 004 `AuthService.signOut`): the session's refresh token stops working.
public struct SignOut: Sendable {
    public let accounts: any AccountStore
    public init(accounts: any AccountStore) { self.accounts = accounts }

    public func execute(viewer: Viewer) async throws {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: "sign out") }
        try await backend { try await accounts.signOut(viewer: viewer) }
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
        let address = "signup:\(clientAddress ?? "unknown")"
        try limits.signUpsPerAddress.check(address)
        limits.signUpsPerAddress.record(address)
        let email = try AccountRules.email(email)
        try await backend { try await accounts.requestPasswordReset(email: email) }
    }
}

/// Completes a password reset with the token of its link: the new password's rules, then the
/// token (single use, an hour).
public struct ResetPassword: Sendable {
    public let accounts: any AccountStore
    public init(accounts: any AccountStore) { self.accounts = accounts }

    public func execute(token: String, newPassword: String) async throws -> AuthResult {
        try AccountRules.password(newPassword, field: "newPassword")
        guard !token.isEmpty, token.utf8.count <= 512 else { throw DomainError.sessionExpired }
        return try await backend { try await accounts.resetPassword(token: token, newPassword: newPassword) }
    }
}

/// The viewer's account (seed 002).
public struct GetAccount: Sendable {
    public let accounts: any AccountStore
    public init(accounts: any AccountStore) { self.accounts = accounts }

    public func execute(viewer: Viewer) async throws -> Account {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: "view your account") }
        return try await backend { try await accounts.account(viewer: viewer) }
    }
}

/// Changes the viewer's settings (seed 002: each setting on its own).
public struct UpdateSettings: Sendable {
    public let accounts: any AccountStore
    public init(accounts: any AccountStore) { self.accounts = accounts }

    public func execute(_ changes: AccountSettingsChanges, viewer: Viewer) async throws -> Account {
        guard viewer.userId != nil else { throw DomainError.unauthenticated(to: "change your settings") }
        return try await backend { try await accounts.updateSettings(changes, viewer: viewer) }
    }
}

/// Changes the password (seed 002): its checks and messages first, then the current password is
/// verified by the identity provider; every other session ends.
/// Wrong current passwords count like failed sign-ins (5 a minute per account): a stolen access
/// token must not become a way to guess the password.
public struct ChangePassword: Sendable {
    public let accounts: any AccountStore
    public let limits: AccountLimits
    public init(accounts: any AccountStore, limits: AccountLimits = AccountLimits()) {
        self.accounts = accounts
        self.limits = limits
    }

    public func execute(current: String, new: String, confirm: String, viewer: Viewer) async throws -> AuthResult {
        guard let me = viewer.userId else { throw DomainError.unauthenticated(to: "change your password") }
        try AccountRules.passwordChange(current: current, new: new, confirm: confirm)
        let key = "account:\(me.lowercased)"
        try limits.failedSignInsPerEmail.check(key)
        do {
            let result = try await backend { try await accounts.changePassword(current: current, new: new, viewer: viewer) }
            limits.failedSignInsPerEmail.reset(key)
            return result
        } catch let error as DomainError where error == .currentPasswordIncorrect {
            limits.failedSignInsPerEmail.record(key)
            throw error
        }
    }
}
