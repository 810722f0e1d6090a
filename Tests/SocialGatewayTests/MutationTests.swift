import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

@Suite("Mutations through the gateway, on each store")
struct MutationTests {
    @Test("updateProfile: absent fields are kept, null clears, text is trimmed; the payload shows the new state", arguments: StoreKind.allCases)
    func updateProfile(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let result = try await gateway.run(
                "mutation M($input: UpdateProfileInput!) { updateProfile(input: $input) { profile { handle displayName bio homeGym climbingSince } } }",
                ["input": ["displayName": "  Alice W.  ", "bio": nil, "homeGym": "The Crag", "climbingSince": "2019-04-01"]],
                viewer: gateway.alice)
            #expect(result.json["errors"] == nil)
            #expect(result.json["data"]?["updateProfile"]?["profile"] == [
                "handle": "alice_wonder", "displayName": "Alice W.", "bio": nil, "homeGym": "The Crag", "climbingSince": "2019-04-01",
            ])
        }
    }

    @Test("updateProfile: seed 001 rules give BAD_USER_INPUT with the field, HANDLE_TAKEN, UNAUTHENTICATED", arguments: StoreKind.allCases)
    func updateProfileRules(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let mutation = "mutation M($input: UpdateProfileInput!) { updateProfile(input: $input) { profile { handle } } }"
            let longBio = try await gateway.run(mutation, ["input": ["bio": .string(String(repeating: "x", count: 281))]], viewer: gateway.alice)
            #expect(GatewayFixture.codes(longBio.json) == ["BAD_USER_INPUT"])
            #expect(longBio.json["errors"]?.arrayValue?.first?["extensions"]?["field"] == "bio")
            #expect(longBio.json["data"] == nil || longBio.json["data"] == .null)
            let taken = try await gateway.run(mutation, ["input": ["handle": "Bob_Builder"]], viewer: gateway.alice)
            #expect(GatewayFixture.codes(taken.json) == ["HANDLE_TAKEN"])
            #expect(GatewayFixture.messages(taken.json) == ["This handle is already taken"])
            let anonymous = try await gateway.run(mutation, ["input": ["bio": "hi"]])
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
        }
    }

    @Test("updateProfile counts characters as the seeds do: 280 emoji with skin tones are a full bio, 281 are too many",
          arguments: StoreKind.allCases)
    func emojiBio(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let mutation = "mutation M($input: UpdateProfileInput!) { updateProfile(input: $input) { profile { bio } } }"
            let bio = String(repeating: "\u{1F44D}\u{1F3FD}", count: 280)
            let saved = try await gateway.run(mutation, ["input": ["bio": .string(bio)]], viewer: gateway.alice)
            #expect(saved.json["data"]?["updateProfile"]?["profile"]?["bio"]?.stringValue == bio)
            let tooLong = try await gateway.run(mutation, ["input": ["bio": .string(bio + "\u{1F44D}\u{1F3FD}")]], viewer: gateway.alice)
            #expect(GatewayFixture.messages(tooLong.json) == ["Bio is too long (281/280 characters)"])
        }
    }

    @Test("toggleFollow: the new state and both counts change in the payload and on the next read", arguments: StoreKind.allCases)
    func toggleFollow(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let bob = DemoData.bobId.uuidString.lowercased()
            let toggle = "mutation T($id: ID!) { toggleFollow(profileId: $id) { following profile { followerCount viewerIsFollowing } viewer { followingCount } } }"
            let off = try await gateway.run(toggle, ["id": .string(bob)], viewer: gateway.alice)
            #expect(off.json["data"]?["toggleFollow"] == ["following": false, "profile": ["followerCount": 1, "viewerIsFollowing": false], "viewer": ["followingCount": 1]])
            let read = try await gateway.run(#"{ profile(handle: "bob_builder") { followerCount viewerIsFollowing } }"#, viewer: gateway.alice)
            #expect(read.json["data"]?["profile"] == ["followerCount": 1, "viewerIsFollowing": false])
            let on = try await gateway.run(toggle, ["id": .string(bob)], viewer: gateway.alice)
            #expect(on.json["data"]?["toggleFollow"]?["following"] == true)
            #expect(on.json["data"]?["toggleFollow"]?["profile"]?["followerCount"] == 2)
        }
    }

    @Test("a follow of a profile that turned private can still be removed (unfollow or toggle); following it again asks",
          arguments: StoreKind.allCases)
    func unfollowHiddenProfile(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let bob = DemoData.bobId.uuidString.lowercased()
            let goPrivate = try await gateway.run(
                "mutation { updateProfile(input: { isPublic: false }) { profile { isPublic } } }", viewer: gateway.bob)
            #expect(goPrivate.json["errors"] == nil)
            let unfollow = "mutation U($id: ID!) { unfollow(profileId: $id) { following profile { handle bio } viewer { followingCount } } }"
            let removed = try await gateway.run(unfollow, ["id": .string(bob)], viewer: gateway.alice)
            #expect(removed.json["errors"] == nil)
            // bob is now only a card to alice (issue 40): his handle, not his bio
            #expect(removed.json["data"]?["unfollow"] == [
                "following": false, "profile": ["handle": "bob_builder", "bio": nil], "viewer": ["followingCount": 1],
            ])
            let again = try await gateway.run(unfollow, ["id": .string(bob)], viewer: gateway.alice)
            #expect(again.json["data"]?["unfollow"]?["viewer"] == ["followingCount": 1])
            let follow = try await gateway.run(
                "mutation F($id: ID!) { follow(profileId: $id) { following requestStatus } }", ["id": .string(bob)], viewer: gateway.alice)
            #expect(follow.json["data"]?["follow"] == ["following": false, "requestStatus": "PENDING"])
            let own = try await gateway.run(#"{ viewer { followerCount } }"#, viewer: gateway.bob)
            #expect(own.json["data"]?["viewer"]?["followerCount"] == 1)

            // A toggle of a followed private profile removes the follow too (carol follows bob in the demo data).
            let toggle = try await gateway.run(
                "mutation T($id: ID!) { toggleFollow(profileId: $id) { following profile { handle } } }", ["id": .string(bob)],
                viewer: gateway.carol)
            #expect(toggle.json["data"]?["toggleFollow"] == ["following": false, "profile": ["handle": "bob_builder"]])
            let after = try await gateway.run(#"{ viewer { followerCount } }"#, viewer: gateway.bob)
            #expect(after.json["data"]?["viewer"]?["followerCount"] == 0)
        }
    }

    @Test("follow and unfollow are idempotent; following yourself is CANNOT_FOLLOW_SELF; a bad id is BAD_USER_INPUT", arguments: StoreKind.allCases)
    func followRules(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let carol = DemoData.carolId.uuidString.lowercased()
            let follow = "mutation F($id: ID!) { follow(profileId: $id) { following profile { followerCount } } }"
            let again = try await gateway.run(follow, ["id": .string(carol)], viewer: gateway.alice)
            #expect(again.json["data"]?["follow"] == ["following": true, "profile": ["followerCount": 2]])
            let unfollow = try await gateway.run("mutation U($id: ID!) { unfollow(profileId: $id) { following } }", ["id": .string(carol)], viewer: gateway.alice)
            #expect(unfollow.json["data"]?["unfollow"] == ["following": false])
            let me = DemoData.aliceId.uuidString.lowercased()
            let selfFollow = try await gateway.run(follow, ["id": .string(me)], viewer: gateway.alice)
            #expect(GatewayFixture.codes(selfFollow.json) == ["CANNOT_FOLLOW_SELF"])
            #expect(GatewayFixture.messages(selfFollow.json) == ["You cannot follow yourself"])
            let badID = try await gateway.run(follow, ["id": "nope"], viewer: gateway.alice)
            #expect(GatewayFixture.codes(badID.json) == ["BAD_USER_INPUT"])
            let anonymous = try await gateway.run(follow, ["id": .string(carol)])
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
        }
    }

    @Test("uploadAvatar: a PNG sent as a multipart file sets avatarURL; a text file is UNSUPPORTED_MEDIA_TYPE; 6 MB is PAYLOAD_TOO_LARGE", arguments: StoreKind.allCases)
    func uploadAvatar(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let mutation = "mutation U($file: Upload!) { uploadAvatar(file: $file) { avatarURL profile { avatarURL } } }"
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE]) + Data(repeating: 7, count: 64)
            let ok = try await gateway.run(
                mutation, ["file": nil], viewer: gateway.alice,
                files: ["0": UploadedFile(filename: "me.png", contentType: "image/png", bytes: png)], map: ["0": ["variables.file"]])
            let url = ok.json["data"]?["uploadAvatar"]?["avatarURL"]?.stringValue ?? ""
            #expect(url.hasSuffix(".png") && url.contains("/avatars/\(DemoData.aliceId.uuidString.lowercased())/"))
            #expect(ok.json["data"]?["uploadAvatar"]?["profile"]?["avatarURL"]?.stringValue == url)
            // The bytes are where the URL says: a file of the data folder, or an object of the avatars bucket.
            let path = String(url.split(separator: "/avatars/").last ?? "")
            switch kind {
            case .embedded:
                let file = try #require(gateway.store.embedded?.mediaDirectory.file(.avatar, forRequestPath: path))
                #expect(try Data(contentsOf: file) == png)
            case .postgres:
                // No SUPABASE_URL: the files go to a folder, served by the gateway at /avatars/.
                #expect(url.hasPrefix("http://gateway.test/avatars/"))
                let file = try #require(gateway.store.mediaDirectory?.file(.avatar, forRequestPath: path))
                #expect(try Data(contentsOf: file) == png)
            case .supabase:
                #expect(url.hasPrefix("http://127.0.0.1:") && url.contains("/storage/v1/object/public/avatars/"))
                #expect(gateway.store.fake?.object(path)?.data == png)
                #expect(gateway.store.fake?.object(path)?.contentType == "image/png")
            }
            let text = try await gateway.run(
                mutation, ["file": nil], viewer: gateway.alice,
                files: ["0": UploadedFile(filename: "me.png", contentType: "image/png", bytes: Data("hello".utf8))], map: ["0": ["variables.file"]])
            #expect(GatewayFixture.codes(text.json) == ["UNSUPPORTED_MEDIA_TYPE"])
            let big = Data([0xFF, 0xD8, 0xFF]) + Data(repeating: 0, count: 6 * 1024 * 1024)
            let tooLarge = try await gateway.run(
                mutation, ["file": nil], viewer: gateway.alice,
                files: ["0": UploadedFile(filename: "big.jpg", contentType: "image/jpeg", bytes: big)], map: ["0": ["variables.file"]])
            #expect(GatewayFixture.codes(tooLarge.json) == ["PAYLOAD_TOO_LARGE"])
            let literal = try await gateway.run(#"mutation { uploadAvatar(file: "x") { avatarURL } }"#, viewer: gateway.alice)
            #expect(literal.response.outcome == .requestError)
        }
    }

    @Test("deleteAvatar: the profile lets go of its avatar and the file is deleted; again, or without an avatar, it changes nothing",
          arguments: StoreKind.allCases)
    func deleteAvatar(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE])
            let upload = try await gateway.run(
                "mutation U($file: Upload!) { uploadAvatar(file: $file) { avatarURL } }", ["file": nil], viewer: gateway.alice,
                files: ["0": UploadedFile(filename: "me.png", contentType: "image/png", bytes: png)], map: ["0": ["variables.file"]])
            let url = try #require(upload.json["data"]?["uploadAvatar"]?["avatarURL"]?.stringValue)
            let path = String(url.split(separator: "/avatars/").last ?? "")
            func stored() -> Bool {
                switch kind {
                case .embedded: gateway.store.embedded?.mediaDirectory.file(.avatar, forRequestPath: path).map { FileManager.default.fileExists(atPath: $0.path) } ?? false
                case .supabase: gateway.store.fake?.object(path) != nil
                case .postgres: gateway.store.mediaDirectory?.file(.avatar, forRequestPath: path).map { FileManager.default.fileExists(atPath: $0.path) } ?? false
                }
            }
            #expect(stored())
            let delete = "mutation { deleteAvatar { profile { handle avatarURL } } }"
            let removed = try await gateway.run(delete, viewer: gateway.alice)
            #expect(removed.json["data"]?["deleteAvatar"] == ["profile": ["handle": "alice_wonder", "avatarURL": nil]])
            #expect(!stored())
            let read = try await gateway.run(#"{ profile(handle: "alice_wonder") { avatarURL } }"#)
            #expect(read.json["data"]?["profile"]?["avatarURL"] == .null)
            let again = try await gateway.run(delete, viewer: gateway.alice)
            #expect(again.json["errors"] == nil)
            #expect(again.json["data"]?["deleteAvatar"]?["profile"]?["avatarURL"] == .null)
            let anonymous = try await gateway.run(delete)
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
            #expect(GatewayFixture.messages(anonymous.json) == ["You must be logged in to delete a photo"])
        }
    }
}
