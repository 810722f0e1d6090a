/// The stable error codes every use case and store reports.
///
/// Raw values are the wire codes (`extensions.code` in a GraphQL error), so never rename a case's
/// raw value: clients switch on them.
public enum DomainErrorCode: String, Sendable, Hashable, CaseIterable {
    case unauthenticated = "UNAUTHENTICATED"
    case forbidden = "FORBIDDEN"
    case notFound = "NOT_FOUND"
    case badUserInput = "BAD_USER_INPUT"
    case handleTaken = "HANDLE_TAKEN"
    case cannotFollowSelf = "CANNOT_FOLLOW_SELF"
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
    case backendUnavailable = "BACKEND_UNAVAILABLE"
    case tooManyRequests = "TOO_MANY_REQUESTS"
    case emailTaken = "EMAIL_TAKEN"
    /// The server cannot take this work now (its password-hashing queue is full): the HTTP
    /// answer is 503 with `Retry-After`, and the same request succeeds later.
    case serverBusy = "SERVER_BUSY"
}

/// The one error type of the social domain: a stable code, a message safe to show a client,
/// and, for input errors, the argument or input field at fault.
///
/// Messages come from the seed documents where they have one. Store failures never leak their
/// detail (no SQL, no upstream bodies): they become ``backendUnavailable``.
///
/// ```swift
/// catch let error as DomainError where error.code == .handleTaken { ... }
/// ```
public struct DomainError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: DomainErrorCode
    public let message: String
    /// The argument or input field the error is about (`"bio"`, `"first"`, `"after"`), if any.
    public let field: String?
    /// For `TOO_MANY_REQUESTS`: seconds until a new attempt may succeed.
    public let retryAfterSeconds: Int?

    public init(_ code: DomainErrorCode, _ message: String, field: String? = nil, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String {
        field.map { "\(code.rawValue) (\($0)): \(message)" } ?? "\(code.rawValue): \(message)"
    }
}

extension DomainError {
    /// Seed 000 `ProfileError.profileNotFound`.
    public static let profileNotFound = DomainError(.notFound, "Profile not found")
    /// Seed 000/001 `handleAlreadyTaken`.
    public static let handleTaken = DomainError(.handleTaken, "This handle is already taken", field: "handle")
    /// No pending request from that profile to the viewer (issue 40).
    public static let followRequestNotFound = DomainError(.notFound, "Follow request not found")
    /// Asking again too soon after a decline (``FollowRequestRules/askAgainAfterDecline``).
    public static func askAgainLater(retryAfterSeconds: Int) -> DomainError {
        DomainError(.tooManyRequests, "You cannot ask to follow this profile again yet", retryAfterSeconds: retryAfterSeconds)
    }
    /// Seed 000/001 `cannotFollowSelf`.
    public static let cannotFollowSelf = DomainError(.cannotFollowSelf, "You cannot follow yourself")
    /// Blocking one's own profile (issue 40).
    public static let cannotBlockSelf = DomainError(.badUserInput, "You cannot block yourself", field: "profileId")
    /// A cursor this list did not issue (another list's, another kind's, or made up), in the
    /// argument `field` (`after`, `before`).
    public static func invalidCursor(field: String) -> DomainError {
        DomainError(.badUserInput, "\(field) is not a valid cursor for this list", field: field)
    }
    /// Any store failure: the detail goes to the logs, never to the client.
    public static let backendUnavailable = DomainError(
        .backendUnavailable, "The service is temporarily unavailable. Please try again later.")
    /// Seed 001 `UpdateProfileError.notAuthorized`.
    public static let notProfileOwner = DomainError(.forbidden, "You are not authorized to update this profile")
    /// Seed 000 `ProfileError.unauthorized` / `SocialError.unauthorized`.
    public static let notAuthorized = DomainError(.forbidden, "Not authorized to perform this action")
    /// Seed 000 `StorageError.unauthorized`.
    public static let storageNotAuthorized = DomainError(.forbidden, "Not authorized to perform storage operation")

    /// An input error on one field.
    public static func badUserInput(_ message: String, field: String) -> DomainError {
        DomainError(.badUserInput, message, field: field)
    }

    /// The caller must sign in; `action` completes the seeds' "You must be logged in to ..." wording.
    public static func unauthenticated(to action: SignedInAction) -> DomainError {
        DomainError(.unauthenticated, "You must be logged in to \(action.words)")
    }

    /// Seed 000 `StorageError.fileTooLarge(maxSizeMB:)`: the file is over `maxBytes` (the message
    /// is derived from the limit, "File exceeds maximum size of 5MB").
    public static func fileTooLarge(maxBytes: Int) -> DomainError {
        DomainError(.payloadTooLarge, "File exceeds maximum size of \(ByteCount(maxBytes))", field: "file")
    }
}
