import Foundation
import SocialDomain
import SupabaseSchema
import Testing
@testable import SupabaseStore

/// The stores and the SQL report conditions; the client reads the domain's words for them
/// (issue 38). Each case asserts what a client sees: the code, the message, the field.
@Suite("conditions from PostgREST, GoTrue, Storage and the SQL become the domain's errors")
struct ConditionMappingTests {
    static func postgrest(_ status: Int, code: String, hint: String?, details: String?) -> DomainError {
        var body: [String: Any] = ["code": code, "message": hint ?? "m"]
        body["hint"] = hint ?? NSNull()
        body["details"] = details ?? NSNull()
        let data = try! JSONSerialization.data(withJSONObject: body)
        return SupabaseErrorMapper.postgrest(SupabaseResponse(status: status, headers: [:], body: data))
    }

    @Test("a signed-out call is worded for the action the SQL names in its detail")
    func signedOutActions() {
        #expect(Self.postgrest(401, code: "PT401", hint: "authentication_required", details: "action=view_feed")
            == DomainError(.unauthenticated, "You must be logged in to view your feed"))
        #expect(Self.postgrest(401, code: "PT401", hint: "authentication_required", details: "action=like_posts")
            == DomainError(.unauthenticated, "You must be logged in to like posts"))
        #expect(Self.postgrest(401, code: "PT401", hint: "authentication_required", details: "action=view_stories")
            == DomainError(.unauthenticated, "You must be logged in to view stories"))
        #expect(Self.postgrest(401, code: "PT401", hint: "authentication_required", details: "action=post_stories")
            == DomainError(.unauthenticated, "You must be logged in to post stories"))
        // A function of a migration before 002100 names no action: only the follow functions could be reached.
        #expect(Self.postgrest(401, code: "PT401", hint: "authentication_required", details: nil)
            == DomainError(.unauthenticated, "You must be logged in to follow users"))
    }

    @Test("the schema's other conditions: the seeds' messages, and the quota's wait from the detail")
    func otherConditions() {
        #expect(Self.postgrest(400, code: "PT400", hint: "cannot_follow_self", details: nil)
            == DomainError(.cannotFollowSelf, "You cannot follow yourself"))
        #expect(Self.postgrest(404, code: "PT404", hint: "profile_not_found", details: nil) == DomainError(.notFound, "Profile not found"))
        #expect(Self.postgrest(404, code: "PT404", hint: "post_not_found", details: nil) == DomainError(.notFound, "Post not found"))
        let quota = Self.postgrest(429, code: "PT429", hint: "too_many_stories", details: "retry_after=42")
        #expect(quota.code == .tooManyRequests && quota.retryAfterSeconds == 42)
        #expect(quota.message == "You have 30 active stories, the most allowed. Try again in 42 seconds.")
    }

    @Test("a token PostgREST refuses gets seed 002's session message, the one a refused refresh token gets")
    func sessionExpired() {
        let rest = Self.postgrest(401, code: "PGRST303", hint: nil, details: nil)
        #expect(rest == DomainError(.unauthenticated, "Your session expired. Please log in again."))
        #expect(rest == DomainError.sessionExpired)
    }

    @Test("GoTrue's refusals: the seeds' messages on the field at fault")
    func goTrue() {
        func auth(_ status: Int, _ code: String, _ operation: String) -> DomainError {
            let body = Data(#"{"code":\#(status),"error_code":"\#(code)","msg":"upstream words"}"#.utf8)
            return SupabaseErrorMapper.auth(SupabaseResponse(status: status, headers: [:], body: body), operation: operation, expired: false)
        }
        #expect(auth(422, "weak_password", "signUp") == DomainError(.badUserInput, "Please choose a stronger password.", field: "password"))
        #expect(auth(422, "same_password", "changePassword")
            == DomainError(.badUserInput, "New password must be different", field: "newPassword"))
        #expect(auth(400, "email_address_invalid", "signUp") == DomainError(.badUserInput, "Enter a valid email address", field: "email"))
    }

    @Test("Storage's 413 and 415 carry the rules of the bucket written: an avatar's 5MB, a story's 15MB")
    func storageByBucket() {
        func storage(_ status: String, _ media: MediaKind) -> DomainError? {
            let body = Data(#"{"statusCode":"\#(status)","error":"x","message":"upstream words"}"#.utf8)
            return SupabaseErrorMapper.storage(SupabaseResponse(status: 400, headers: [:], body: body), media: media)
        }
        #expect(storage("413", .avatar) == DomainError(.payloadTooLarge, "File exceeds maximum size of 5MB", field: "file"))
        #expect(storage("413", .story) == DomainError(.payloadTooLarge, "File exceeds maximum size of 15MB", field: "file"))
        #expect(storage("415", .avatar) == DomainError(.unsupportedMediaType, "Invalid image data provided", field: "file"))
        #expect(storage("415", .story) == DomainError(
            .unsupportedMediaType, "Stories must be a JPEG or PNG image, or an MP4 or QuickTime video", field: "file"))
    }

    @Test("every action a migration names is one the domain words, and no function words its own error")
    func migrationsNameDomainActions() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = root.appendingPathComponent("supabase/migrations/20250301002100_coded_errors.sql")
        let sql = try String(contentsOf: file, encoding: .utf8)
        let actions = sql.components(separatedBy: "detail = 'action=").dropFirst().compactMap { $0.split(separator: "'").first.map(String.init) }
        #expect(Set(actions) == ["follow_users", "view_feed", "like_posts", "view_stories", "post_stories"])
        for action in actions { #expect(SignedInAction(rawValue: action) != nil, "\(action)") }
        #expect(!sql.contains("raise exception 'You"), "a migration words an error")
    }
}
