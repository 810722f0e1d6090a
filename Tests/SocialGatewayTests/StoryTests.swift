import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialGateway
import Testing

/// Stories through the gateway, on every store (issue 19, seed 004's Story).
@Suite("Stories")
struct StoryTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
    static let mp4 = Data([0, 0, 0, 0x18]) + Data("ftypisom".utf8) + Data(repeating: 0, count: 64)
    static let mutation = "mutation S($f: Upload!) { createStory(file: $f) { story { id mediaURL mediaType createdAt expiresAt author { handle } } } }"

    func post(_ gateway: GatewayFixture, _ bytes: Data, as viewer: Viewer, type: String = "application/octet-stream") async throws -> JSONValue {
        try await gateway.run(
            Self.mutation, ["f": nil], viewer: viewer,
            files: ["0": UploadedFile(filename: "story", contentType: type, bytes: bytes)], map: ["0": ["variables.f"]]).json
    }

    /// Runs `body` on a fresh store of `kind` whose demo stories (the embedded store gives each
    /// demo user one at start, for the playground) have expired, so every store starts alike.
    func run(_ kind: StoreKind, _ body: (GatewayFixture) async throws -> Void) async throws {
        try await GatewayFixture.run(kind) { gateway in
            for user in DemoData.users { try await gateway.store.ageStories(of: user.id) }
            try await body(gateway)
        }
    }

    func tray(_ gateway: GatewayFixture, as viewer: Viewer) async throws -> [(String, Int)] {
        let json = try await gateway.run("{ stories { author { handle } stories { id mediaType } } }", viewer: viewer).json
        return (json["data"]?["stories"]?.arrayValue ?? []).map {
            ($0["author"]?["handle"]?.stringValue ?? "", $0["stories"]?.arrayValue?.count ?? 0)
        }
    }

    @Test("createStory stores an image or a video for 24 hours; the tray groups by author, the viewer's own first", arguments: StoreKind.allCases)
    func createAndTray(_ kind: StoreKind) async throws {
        try await run(kind) { gateway in
            let image = try await post(gateway, Self.png, as: gateway.bob)["data"]?["createStory"]?["story"]
            #expect(image?["mediaType"] == "IMAGE" && image?["author"]?["handle"] == "bob_builder")
            let created = try #require(image?["createdAt"]?.stringValue.flatMap(UnixMicroseconds.parse))
            let expires = try #require(image?["expiresAt"]?.stringValue.flatMap(UnixMicroseconds.parse))
            #expect(expires - created == Story.lifetimeMicroseconds)
            #expect(image?["mediaURL"]?.stringValue?.hasSuffix(".png") == true)
            let video = try await post(gateway, Self.mp4, as: gateway.carol)["data"]?["createStory"]?["story"]
            #expect(video?["mediaType"] == "VIDEO")
            #expect(video?["mediaURL"]?.stringValue?.hasSuffix(".mp4") == true)
            _ = try await post(gateway, Self.png, as: gateway.carol)
            // Alice follows both: carol's newer group first. Bob sees his own first.
            #expect(try await tray(gateway, as: gateway.alice).map(\.0) == ["carol_creator", "bob_builder"])
            #expect(try await tray(gateway, as: gateway.alice).map(\.1) == [2, 1])
            #expect(try await tray(gateway, as: gateway.bob).map(\.0) == ["bob_builder", "carol_creator"])
            let node = try await gateway.run(#"{ node(id: "\#(image?["id"]?.stringValue ?? "")") { ... on Story { mediaType } } }"#, viewer: gateway.alice)
            #expect(node.json["data"]?["node"] == ["mediaType": "IMAGE"])
            let anonymous = try await gateway.run("{ stories { author { handle } } }")
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
        }
    }

    @Test("a text file is UNSUPPORTED_MEDIA_TYPE and 16 MB is PAYLOAD_TOO_LARGE; neither leaves a row", arguments: StoreKind.allCases)
    func badFiles(_ kind: StoreKind) async throws {
        try await run(kind) { gateway in
            let text = try await post(gateway, Data("not a picture".utf8), as: gateway.alice, type: "image/png")
            #expect(GatewayFixture.codes(text) == ["UNSUPPORTED_MEDIA_TYPE"])
            #expect(GatewayFixture.messages(text) == ["Stories must be a JPEG or PNG image, or an MP4 or QuickTime video"])
            let big = try await post(gateway, Self.png + Data(repeating: 0, count: 16 * 1024 * 1024), as: gateway.alice)
            #expect(GatewayFixture.codes(big) == ["PAYLOAD_TOO_LARGE"])
            #expect(try await tray(gateway, as: gateway.alice).isEmpty)
        }
    }

    @Test("an expired story is never returned; a private author's stories reach only them", arguments: StoreKind.allCases)
    func expiryAndPrivacy(_ kind: StoreKind) async throws {
        try await run(kind) { gateway in
            let id = try await post(gateway, Self.png, as: gateway.bob)["data"]?["createStory"]?["story"]?["id"]?.stringValue ?? ""
            _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: gateway.bob)
            #expect(try await tray(gateway, as: gateway.alice).isEmpty)
            #expect(try await tray(gateway, as: gateway.bob).map(\.0) == ["bob_builder"])
            try await gateway.store.ageStories(of: DemoData.bobId)
            #expect(try await tray(gateway, as: gateway.bob).isEmpty)
            let node = try await gateway.run(#"{ node(id: "\#(id)") { id } }"#, viewer: gateway.bob)
            #expect(node.json["data"]?["node"] == .null)
        }
    }

    @Test("the embedded store starts with a story per demo user; its housekeeping deletes expired stories and their files")
    func purge() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            let store = try #require(gateway.store.embedded)
            // The demo users' stories, made at start, are active: one each in the tray.
            #expect(try await tray(gateway, as: gateway.alice).map(\.1) == [1, 1, 1])
            for user in DemoData.users { try await store.operatorAgeStories(of: user.id) }
            #expect(try await store.purgeExpiredStories(now: Date()) == 3)
            let url = try await post(gateway, Self.png, as: gateway.bob)["data"]?["createStory"]?["story"]?["mediaURL"]?.stringValue ?? ""
            let path = String(url.split(separator: "/stories/").last ?? "")
            let file = store.storiesDirectory.appendingPathComponent(path)
            #expect(FileManager.default.fileExists(atPath: file.path))
            #expect(try await store.purgeExpiredStories(now: Date()) == 0)
            try await store.operatorAgeStories(of: DemoData.bobId)
            #expect(try await store.purgeExpiredStories(now: Date()) == 1)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(await store.storedStoryMedia(atRequestPath: path) == nil)
        }
    }
}
