import Foundation
import SocialDomain
import SupabaseFake
import Testing
@testable import SupabaseStore

@Suite("SupabaseStore avatars (media files) on the wire",
      .enabled(if: StoreHarness.available, "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
struct MediaStoreRequestTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0, 0xFF, 0xD9])

    func path(_ owner: UUID) -> MediaPath {
        MediaPath(kind: .avatar, owner: owner, unixTime: 1_740_912_672, suffix: "3f9c1a2b", format: .jpeg)
    }

    @Test("putMedia of an avatar POSTs the bytes to the lower-case {uid}/ folder with the real type and x-upsert")
    func uploadRequest() async throws {
        try await StoreHarness.run { h in
            // One viewer, one token: a token minted again a second later has another `exp`.
            let alice = h.asAlice
            let url = try await h.store.putMedia(Self.jpeg, at: path(StoreHarness.alice), viewer: alice)
            let name = "a11ce000-0000-4000-8000-000000000001/1740912672_3f9c1a2b.jpg"
            #expect(url == "\(h.fake.url)/storage/v1/object/public/avatars/\(name)")
            let request = h.fake.requests[0]
            #expect(request.method == "POST" && request.path == "/storage/v1/object/avatars/\(name)")
            #expect(request.headers["content-type"] == "image/jpeg")
            #expect(request.headers["x-upsert"] == "true")
            #expect(request.headers["cache-control"] == "max-age=3600")
            #expect(request.headers["authorization"] == "Bearer \(alice.token ?? "")")
            #expect(request.body == Self.jpeg)
            #expect(h.fake.object(name)?.data == Self.jpeg)
        }
    }

    @Test("Storage's HTTP 400 with statusCode 403 is FORBIDDEN, 413 is PAYLOAD_TOO_LARGE")
    func storageErrorsByBody() async throws {
        try await StoreHarness.run { h in
            h.fake.inject(.status(400, #"{"statusCode":"403","error":"Unauthorized","message":"new row violates row-level security policy"}"#))
            let denied = await StoreHarness.domainError { _ = try await h.store.putMedia(Self.jpeg, at: path(StoreHarness.alice), viewer: h.asAlice) }
            #expect(denied == DomainError.storageNotAuthorized)
            h.fake.inject(.status(400, #"{"statusCode":"413","code":"EntityTooLarge","error":"Payload too large","message":"The object exceeded the maximum allowed size"}"#))
            let large = await StoreHarness.domainError { _ = try await h.store.putMedia(Self.jpeg, at: path(StoreHarness.alice), viewer: h.asAlice) }
            #expect(large?.code == .payloadTooLarge && large?.message == "File exceeds maximum size of 5MB")
        }
    }

    @Test("another user's folder is FORBIDDEN before any request")
    func otherFolder() async throws {
        try await StoreHarness.run { h in
            let error = await StoreHarness.domainError { _ = try await h.store.putMedia(Self.jpeg, at: path(StoreHarness.bob), viewer: h.asAlice) }
            #expect(error == DomainError.storageNotAuthorized)
            #expect(h.fake.requests.isEmpty)
        }
    }

    @Test("deleteMedia of an avatar DELETEs the object; a missing object (400 with statusCode 404) is not an error")
    func deleteRequest() async throws {
        try await StoreHarness.run { h in
            let name = "a11ce000-0000-4000-8000-000000000001/1740912672_3f9c1a2b.jpg"
            try await h.fake.putObject(name, Self.jpeg)
            try await h.store.deleteMedia(at: path(StoreHarness.alice), viewer: h.asAlice)
            #expect(h.fake.object(name) == nil)
            try await h.store.deleteMedia(at: path(StoreHarness.alice), viewer: h.asAlice)
            #expect(h.fake.requests.map { "\($0.method) \($0.path)" } == Array(repeating: "DELETE /storage/v1/object/avatars/\(name)", count: 2))
        }
    }

    @Test("UploadAvatar deletes the object again when the profile update fails")
    func uploadRollsBack() async throws {
        try await StoreHarness.run { h in
            // Four failures on /rest/v1/profiles: the read of the avatar being replaced (a GET, tried
            // three times) and then the profile update (a PATCH, sent once).
            h.fake.inject(
                .status(500, #"{"code":"XX000","details":null,"hint":null,"message":"boom"}"#), pathPrefix: "/rest/v1/profiles", times: 4)
            let upload = UploadAvatar(profiles: h.store, media: h.store)
            let error = await StoreHarness.domainError { _ = try await upload.execute(bytes: Self.jpeg, viewer: h.asAlice) }
            #expect(error == DomainError.backendUnavailable)
            // The failed read only skips the clean-up of the old avatar; the new object is rolled back.
            #expect(h.fake.requests.prefix(3).map(\.method) == ["GET", "GET", "GET"])
            let writes = h.fake.requests.filter { $0.method != "GET" }
            try #require(writes.map(\.method) == ["POST", "PATCH", "DELETE"])
            #expect(writes[0].path == writes[2].path)
        }
    }
}
