import Foundation
import Testing
@testable import SocialDomain

/// The domain's messages, derived from the constants and words they describe, are exactly the
/// seeds' (issue 38: "5MB"/"15MB" were typed beside the limits they state).
@Suite("the domain words each message once, from its rule")
struct DomainMessageTests {
    @Test("size limits are worded from the constants: seed 000's \"File exceeds maximum size of 5MB\"")
    func sizeLimits() {
        #expect(DomainError.fileTooLarge(maxBytes: UploadAvatar.maxBytes)
            == DomainError(.payloadTooLarge, "File exceeds maximum size of 5MB", field: "file"))
        #expect(DomainError.fileTooLarge(maxBytes: CreateStory.maxBytes).message == "File exceeds maximum size of 15MB")
        #expect("\(ByteCount(1024 * 1024))" == "1MB" && "\(ByteCount(512 * 1024))" == "512KB" && "\(ByteCount(300))" == "300 bytes")
    }

    @Test("signed-out messages: seed 001's words where it has them")
    func signedOut() {
        let seeds: [SignedInAction: String] = [
            .followUsers: "You must be logged in to follow users",
            .searchProfiles: "You must be logged in to search profiles",
            .uploadPhoto: "You must be logged in to upload a photo",
            .viewFollowers: "You must be logged in to view followers",
            .viewFollowing: "You must be logged in to view following",
        ]
        for (action, message) in seeds { #expect(DomainError.unauthenticated(to: action) == DomainError(.unauthenticated, message)) }
        #expect(DomainError.unauthenticated(to: .viewFeed).message == "You must be logged in to view your feed")
        // every action has its own words
        #expect(Set(SignedInAction.allCases.map(\.words)).count == SignedInAction.allCases.count)
    }

    @Test("seed 002's account messages")
    func accounts() {
        #expect(DomainError.sessionExpired == DomainError(.unauthenticated, "Your session expired. Please log in again."))
        #expect(DomainError.passwordTooWeak == DomainError(.badUserInput, "Please choose a stronger password.", field: "password"))
        #expect(DomainError.invalidHandle.message
            == "Invalid handle: Must be 3-30 characters, start with a letter, and contain only letters, numbers, and underscores")
    }

    @Test("page sizes: one rule per kind of connection, the default inside its range")
    func pageSizes() throws {
        #expect(try PageSize.lists.checked(nil, field: "first") == 20)
        #expect(try PageSize.followChanges.checked(nil, field: "first") == 50)
        #expect(throws: DomainError(.badUserInput, "last must be between 0 and 50", field: "last")) {
            try PageSize.lists.checked(51, field: "last")
        }
        #expect(throws: DomainError(.badUserInput, "first must be between 1 and 50", field: "first")) {
            try PageSize.search.checked(0, field: "first")
        }
    }
}
