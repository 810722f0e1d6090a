import Foundation
import SocialDomain
import SupabaseSchema

/// Turns upstream failures into the domain's errors, in one place.
///
/// PostgREST answers `{code, message, details, hint}` with a meaningful HTTP status; Storage
/// answers HTTP 400 for almost everything and puts the real status in the body's `statusCode`
/// (a string), so Storage errors are classified by the body first (supabase-wire.md §2.10,
/// §4.6). The client sees only the domain's message; the upstream body goes to the log. Every
/// answer is a domain value (`DomainError`'s own): this file names conditions, it words none.
enum SupabaseErrorMapper {
    /// A token PostgREST or Storage rejected (expired, bad signature, revoked): seed 002's
    /// "Your session expired" (``DomainError/sessionExpired``), as a refused refresh token gets.
    static let sessionExpired = DomainError.sessionExpired

    /// What a PostgREST error means for the domain.
    /// - Parameter forbidden: the FORBIDDEN error of the calling use case.
    static func postgrest(_ response: SupabaseResponse, forbidden: DomainError = .notAuthorized) -> DomainError {
        let body = PostgRESTErrorBody.decode(response.body)
        if let error = SchemaErrors.domainError(sqlState: body?.code, hint: body?.hint, detail: body?.details) { return error }
        switch body?.code {
        case "PGRST301"?, "PGRST302"?, "PGRST303"?: return sessionExpired
        case "42501"?: return response.status == 401 ? sessionExpired : forbidden
        default: break
        }
        switch response.status {
        case 401: return sessionExpired
        case 403: return forbidden
        default: return .backendUnavailable
        }
    }

    /// What a GoTrue error means for the domain (`{"code", "error_code", "msg"}`; older servers
    /// `{"error", "error_description"}`). Unknown credentials and a wrong password are one answer.
    static func auth(_ response: SupabaseResponse, operation: String, expired: Bool) -> DomainError {
        let body = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        let code = (body["error_code"] as? String) ?? (body["error"] as? String) ?? ""
        if response.status == 429 || code.hasPrefix("over_") { return .tooManyAttempts(retryAfter: 60) }
        switch code {
        case "invalid_credentials":
            return .invalidCredentials
        case "invalid_grant" where operation == "signIn" || operation == "reauthenticate":
            return .invalidCredentials
        case "user_already_exists", "email_exists": return .emailTaken
        case "weak_password": return .passwordTooWeak
        case "same_password": return .newPasswordNotDifferent
        case "email_address_invalid", "validation_failed": return .invalidEmail
        case "refresh_token_not_found", "refresh_token_already_used", "session_not_found", "session_expired", "bad_jwt",
             "otp_expired", "flow_state_expired":
            return .sessionExpired
        default: break
        }
        if operation == "refresh" || expired, (400..<500).contains(response.status) { return .sessionExpired }
        if operation == "signIn", response.status == 400 { return .invalidCredentials }
        switch response.status {
        case 401, 403: return .sessionExpired
        default: return .backendUnavailable
        }
    }

    /// What a Storage error means for the domain (`nil` for "object not found", which the
    /// caller decides about: deleting a missing avatar is not an error).
    /// - Parameter media: the rules of the bucket written, for a file Storage refused as too
    ///   large (413) or of the wrong type (415).
    static func storage(_ response: SupabaseResponse, media: MediaKind = .avatar) -> DomainError? {
        let body = StorageErrorBody.decode(response.body)
        let status = body?.statusCode.flatMap { Int($0) } ?? response.status
        let label = [body?.code, body?.error].compactMap { $0?.lowercased() }
        if label.contains("invalidjwt") || status == 401 { return sessionExpired }
        switch status {
        case 403: return .storageNotAuthorized
        case 404: return nil
        case 413: return media.fileTooLarge
        case 415: return media.unsupportedFile
        default: return .backendUnavailable
        }
    }
}

/// PostgREST's error shape; every field may be null.
struct PostgRESTErrorBody: Decodable {
    var code: String?
    var message: String?
    var details: String?
    var hint: String?

    static func decode(_ data: Data) -> PostgRESTErrorBody? {
        try? JSONDecoder().decode(PostgRESTErrorBody.self, from: data)
    }
}

/// Storage's error shape: `statusCode` is a string in current servers, a number in some.
struct StorageErrorBody: Decodable {
    var statusCode: String?
    var code: String?
    var error: String?
    var message: String?

    enum CodingKeys: String, CodingKey { case statusCode, code, error, message }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try? c.decodeIfPresent(String.self, forKey: .statusCode) {
            statusCode = text
        } else if let number = try? c.decodeIfPresent(Int.self, forKey: .statusCode) {
            statusCode = String(number)
        }
        code = try? c.decodeIfPresent(String.self, forKey: .code)
        error = try? c.decodeIfPresent(String.self, forKey: .error)
        message = try? c.decodeIfPresent(String.self, forKey: .message)
    }

    static func decode(_ data: Data) -> StorageErrorBody? {
        try? JSONDecoder().decode(StorageErrorBody.self, from: data)
    }
}
