import Foundation

/// The account rules: email format, password length, and seed 002's password-change checks with
/// its exact messages.
public enum AccountRules {
    /// Seed 002: at least 8 characters.
    public static let minPasswordLength = 8
    /// An upper bound (bcrypt, GoTrue's hash, reads 72 bytes; 128 characters leaves room for
    /// passphrases and bounds the hashing work of a hostile request).
    public static let maxPasswordLength = 128
    public static let maxEmailLength = 254

    /// The email, trimmed and lower-cased.
    /// - Throws: `BAD_USER_INPUT` on `email`.
    public static func email(_ text: String) throws -> String {
        let email = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= maxEmailLength, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: { $0.isWhitespace || $0.isNewline }),
              email.allSatisfy({ $0.isASCII ? ($0.isLetter || $0.isNumber || "@._+-'".contains($0)) : true })
        else { throw DomainError.invalidEmail }
        return email
    }

    /// A new password's rules (sign-up).
    /// - Throws: `BAD_USER_INPUT` on `field`.
    public static func password(_ text: String, field: String = "password") throws {
        guard text.count >= minPasswordLength else { throw DomainError.passwordTooShort(field: field) }
        guard text.count <= maxPasswordLength, text.utf8.count <= maxPasswordLength * 4 else {
            throw DomainError.badUserInput("Password must be at most \(maxPasswordLength) characters", field: field)
        }
    }

    /// Seed 002's `PasswordChangeRequest.validationError`, in its order, with its messages.
    /// - Throws: `BAD_USER_INPUT` naming the field.
    public static func passwordChange(current: String, new: String, confirm: String) throws {
        if current.isEmpty { throw DomainError.badUserInput("Enter your current password", field: "currentPassword") }
        if new.isEmpty { throw DomainError.badUserInput("Enter a new password", field: "newPassword") }
        if new.count < minPasswordLength { throw DomainError.passwordTooShort(field: "newPassword") }
        if new == current { throw DomainError.newPasswordNotDifferent }
        if new != confirm { throw DomainError.badUserInput("Passwords don't match", field: "confirmPassword") }
        try password(new, field: "newPassword")
    }
}

extension DomainError {
    /// A new password shorter than ``AccountRules/minPasswordLength``, in the argument `field`.
    public static func passwordTooShort(field: String) -> DomainError {
        DomainError(.badUserInput, "Password must be at least \(AccountRules.minPasswordLength) characters", field: field)
    }
    /// The one answer to a failed sign-in, whatever failed (no account, wrong password).
    public static let invalidCredentials = DomainError(.unauthenticated, "Invalid email or password")
    /// Seed 002 `ProfileError.currentPasswordIncorrect`.
    public static let currentPasswordIncorrect = DomainError(.badUserInput, "Current password is incorrect.", field: "currentPassword")
    /// A refresh token that is unknown, used, revoked or expired (seed 002 `sessionExpired`).
    public static let sessionExpired = DomainError(.unauthenticated, "Your session expired. Please log in again.")
    public static let emailTaken = DomainError(.emailTaken, "An account with this email already exists", field: "email")
    /// Seed 002's email check (``AccountRules/email(_:)``), and an identity provider that refused the address.
    public static let invalidEmail = DomainError(.badUserInput, "Enter a valid email address", field: "email")
    /// Seed 002 `PasswordChangeRequest`: the new password is the current one.
    public static let newPasswordNotDifferent = DomainError(.badUserInput, "New password must be different", field: "newPassword")
    /// Seed 002 `ProfileError.passwordTooWeak`: an identity provider's strength rule refused the password.
    public static let passwordTooWeak = DomainError(.badUserInput, "Please choose a stronger password.", field: "password")
    /// A store without accounts (the PostgreSQL store without `SUPABASE_URL`).
    public static let accountsUnavailable = DomainError(
        .backendUnavailable, "Accounts are not available on this server: it has no identity provider (set SUPABASE_URL).")

    /// The store's password-hashing queue is full (a burst of sign-ins, sign-ups or resets).
    public static let passwordHashingBusy = DomainError(
        .serverBusy, "The server is busy. Try again in a second.", retryAfterSeconds: 1)

    public static func tooManyAttempts(retryAfter seconds: Int) -> DomainError {
        DomainError(.tooManyRequests, "Too many attempts. Try again in \(seconds) seconds.", retryAfterSeconds: seconds)
    }
}
