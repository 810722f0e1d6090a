import Foundation

/// Accounts and sessions in an identity provider: the embedded store's own accounts table, or
/// Supabase Auth (GoTrue). Inputs reach it validated (``AccountRules``); errors are
/// ``DomainError``s.
public protocol AccountStore: Sendable {
    /// Creates the account and its profile with `handle`, and the owner-only `homeZIP` when given
    /// (already checked by ``HomeZIPRule``).
    /// - Throws: `EMAIL_TAKEN`, `HANDLE_TAKEN`.
    func signUp(email: String, password: String, handle: String, homeZIP: String?) async throws -> AuthResult
    /// A new session. Unknown email and wrong password fail alike, in the same time.
    /// - Throws: `UNAUTHENTICATED` (``DomainError/invalidCredentials``).
    func signIn(email: String, password: String) async throws -> AuthResult
    /// The next session for a refresh token, which is then used up (a second use fails, and
    /// ends the session it belonged to: a stolen token is noticed).
    /// - Throws: `UNAUTHENTICATED` (``DomainError/sessionExpired``).
    func refresh(refreshToken: String) async throws -> AuthResult
    /// Ends the viewer's session: its refresh token no longer works.
    func signOut(viewer: Viewer) async throws
    /// Starts a password reset for `email` if it has an account; says nothing either way.
    func requestPasswordReset(email: String) async throws
    /// Sets a new password with the one-time token of a reset link, ends every session, and
    /// signs in. - Throws: ``DomainError/sessionExpired`` for an unknown, used or expired token.
    func resetPassword(token: String, newPassword: String) async throws -> AuthResult
    /// The viewer's account.
    func account(viewer: Viewer) async throws -> Account
    /// Changes the viewer's settings.
    func updateSettings(_ changes: AccountSettingsChanges, viewer: Viewer) async throws -> Account
    /// Checks `current`, sets `new`, ends every other session of the account (their refresh
    /// tokens no longer work) and returns a new one.
    /// - Throws: ``DomainError/currentPasswordIncorrect``.
    func changePassword(current: String, new: String, viewer: Viewer) async throws -> AuthResult
    /// The sessions that ended since `since` whose access tokens may still verify, so that a
    /// server starting up refuses them as the one that ended them did (``EndedSessions``).
    /// A provider that cannot tell answers none.
    func recentlyEndedSessions(since: Date) async throws -> [SessionEnd]
}

extension AccountStore {
    /// Signs up without a home ZIP.
    public func signUp(email: String, password: String, handle: String) async throws -> AuthResult {
        try await signUp(email: email, password: password, handle: handle, homeZIP: nil)
    }

    /// Supabase Auth deletes an ended session; nothing is left to tell.
    public func recentlyEndedSessions(since: Date) async throws -> [SessionEnd] { [] }
}

/// Signs access tokens for a store that is its own identity provider (the embedded store): the
/// same JWTs the gateway verifies, with the session they belong to.
public protocol AccessTokenSigner: Sendable {
    /// A token for `userId` in session `sessionId`, and when it expires.
    func accessToken(userId: UUID, sessionId: UUID, email: String) async throws -> (token: String, expiresAt: Date)
}

/// The account operations of a store without an identity provider (the PostgreSQL store without
/// `SUPABASE_URL`): each answers ``DomainError/accountsUnavailable``, one clear error.
public struct NoAccounts: AccountStore {
    public init() {}
    public func signUp(email: String, password: String, handle: String, homeZIP: String?) async throws -> AuthResult {
        throw DomainError.accountsUnavailable
    }
    public func signIn(email: String, password: String) async throws -> AuthResult { throw DomainError.accountsUnavailable }
    public func refresh(refreshToken: String) async throws -> AuthResult { throw DomainError.accountsUnavailable }
    public func signOut(viewer: Viewer) async throws { throw DomainError.accountsUnavailable }
    public func requestPasswordReset(email: String) async throws { throw DomainError.accountsUnavailable }
    public func resetPassword(token: String, newPassword: String) async throws -> AuthResult { throw DomainError.accountsUnavailable }
    public func account(viewer: Viewer) async throws -> Account { throw DomainError.accountsUnavailable }
    public func updateSettings(_ changes: AccountSettingsChanges, viewer: Viewer) async throws -> Account { throw DomainError.accountsUnavailable }
    public func changePassword(current: String, new: String, viewer: Viewer) async throws -> AuthResult { throw DomainError.accountsUnavailable }
}
