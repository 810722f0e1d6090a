import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Stories through the gateway, on every store (issue 19, seed 004's Story).
@Suite("Stories")
struct StoryTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
    static let mp4 = Data([0, 0, 0, 0x18]) + Data("ftypisom".utf8) + Data(repeating: 0, count: 64)
    /// A PNG whose IHDR declares 100000 x 100000 pixels: a few bytes, gigabytes once decoded.
    static let bombPNG = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                               0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 2, 0, 0, 0])
    /// `head` bytes, then each text as UTF-8.
    static func bytes(_ head: [UInt8], _ texts: String...) -> Data {
        var all = head
        for text in texts { all += Array(text.utf8) }
        return Data(all)
    }
    /// A real MP4's start: `ftyp` (32 bytes: major brand isom, minor 0x200, compatible isom iso2
    /// avc1 mp41, as ffmpeg writes it), then `free` and an empty `mdat`.
    static let realMP4: Data = bytes([0, 0, 0, 0x20], "ftypisom") + bytes([0, 0, 2, 0], "isomiso2avc1mp41")
        + bytes([0, 0, 0, 8], "free") + bytes([0, 0, 0, 8], "mdat")
    /// A QuickTime movie's start as an iPhone writes it: `ftyp` (20 bytes, brand `qt  `, minor
    /// 0x20050300, compatible `qt  `), then `wide` and an empty `mdat`.
    static let quickTime: Data = bytes([0, 0, 0, 0x14], "ftypqt  ") + bytes([0x20, 0x05, 0x03, 0x00], "qt  ")
        + bytes([0, 0, 0, 8], "wide") + bytes([0, 0, 0, 8], "mdat")
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

    @Test("issue 37: a story image declaring 100000 x 100000 pixels, or without a readable header, is refused as an avatar is, and no file is kept",
          arguments: StoreKind.allCases)
    func imageDimensions(_ kind: StoreKind) async throws {
        try await run(kind) { gateway in
            let files = gateway.store.storedStoryFileCount()
            let bomb = try await post(gateway, Self.bombPNG, as: gateway.alice, type: "image/png")
            #expect(GatewayFixture.codes(bomb) == ["PAYLOAD_TOO_LARGE"])
            #expect(GatewayFixture.messages(bomb) == ["Image exceeds maximum dimensions of 4096x4096 pixels"])
            let headless = try await post(gateway, Self.bombPNG.prefix(8) + Data(repeating: 0x41, count: 40), as: gateway.alice)
            #expect(GatewayFixture.codes(headless) == ["UNSUPPORTED_MEDIA_TYPE"])
            #expect(GatewayFixture.messages(headless) == ["Invalid image data provided"])
            // 4096 x 4096 exactly is still a story
            var largest = Self.bombPNG
            largest.replaceSubrange(16..<24, with: [0, 0, 0x10, 0, 0, 0, 0x10, 0])
            #expect(try await post(gateway, largest, as: gateway.alice)["data"]?["createStory"]?["story"]?["mediaType"] == "IMAGE")
            #expect(try await tray(gateway, as: gateway.alice).map(\.1) == [1])
            #expect(gateway.store.storedStoryFileCount() == files + 1)
        }
    }

    @Test("issue 37: HTML with `ftyp` at byte 4 is no video; real MP4 and QuickTime headers are", arguments: StoreKind.allCases)
    func videoHeaders(_ kind: StoreKind) async throws {
        try await run(kind) { gateway in
            let page = "<html><body><script>alert(document.cookie)</script></body></html>"
            let impostors: [Data] = [
                Self.bytes([], "<!--ftypisom-->", page),  // `ftyp` at 4, but a box of 1,008,807,213 bytes
                Self.bytes([0, 0, 0, 0x18], "ftyphtml        ", page),  // a plausible box, an unknown brand
                Self.bytes([0, 0, 0x10, 0], "ftypisom", page),  // a first box past the end of the file
                Self.bytes([0, 0, 0, 0x13], "ftypisom       ", page),  // no whole brands
                Self.bytes([0, 0, 0, 0x0C], "ftypisom", page),  // shorter than a ftyp box
            ]
            for bytes in impostors {
                let refused = try await post(gateway, bytes, as: gateway.alice, type: "video/mp4")
                #expect(GatewayFixture.codes(refused) == ["UNSUPPORTED_MEDIA_TYPE"])
                #expect(GatewayFixture.messages(refused) == ["Stories must be a JPEG or PNG image, or an MP4 or QuickTime video"])
            }
            #expect(try await tray(gateway, as: gateway.alice).isEmpty)
            let mp4 = try await post(gateway, Self.realMP4, as: gateway.alice)["data"]?["createStory"]?["story"]
            #expect(mp4?["mediaType"] == "VIDEO" && mp4?["mediaURL"]?.stringValue?.hasSuffix(".mp4") == true)
            let mov = try await post(gateway, Self.quickTime, as: gateway.alice)["data"]?["createStory"]?["story"]
            #expect(mov?["mediaType"] == "VIDEO" && mov?["mediaURL"]?.stringValue?.hasSuffix(".mov") == true)
        }
    }

    @Test("issue 37: the 31st active story is TOO_MANY_REQUESTS until the oldest expires, refused before its file is stored; the store refuses it too",
          arguments: StoreKind.allCases)
    func quota(_ kind: StoreKind) async throws {
        try await run(kind) { gateway in
            for _ in 0..<CreateStory.maxActiveStories {
                let made = try await post(gateway, Self.png, as: gateway.bob)
                #expect(GatewayFixture.codes(made).isEmpty)
            }
            #expect(CreateStory.maxActiveStories == 30)
            let files = gateway.store.storedStoryFileCount()
            gateway.store.resetRoundTrips()
            let refused = try await post(gateway, Self.png, as: gateway.bob)
            #expect(GatewayFixture.codes(refused) == ["TOO_MANY_REQUESTS"])
            let retryAfter = refused["errors"]?.arrayValue?.first?["extensions"]?["retryAfter"]?.intValue ?? 0
            #expect((86_000...86_400).contains(retryAfter), "seconds until the oldest story expires: \(retryAfter)")
            // refused before the upload: nothing stored, nothing sent to the object store
            #expect(gateway.store.storedStoryFileCount() == files)
            #expect(gateway.store.embedded?.callCounts["putStoryMedia"] == nil)
            #expect(gateway.store.fake?.requests.contains { $0.path.hasPrefix("/storage/") } != true)
            #expect(try await tray(gateway, as: gateway.bob).map(\.1) == [30])
            // The store's own check, for a client that skips the use case (or a concurrent post):
            // the file is there, the row is refused.
            let path = MediaPath(kind: .story, owner: DemoData.bobId, unixTime: 1_740_912_672, suffix: "0badf00d", format: .png)
            let url = try await gateway.store.stores.media.putMedia(Self.png, at: path, viewer: gateway.bob)
            await #expect(throws: DomainError.self) {
                do {
                    _ = try await gateway.store.stores.stories.createStory(mediaURL: url, path: path, viewer: gateway.bob)
                } catch let error as DomainError {
                    #expect(error.code == .tooManyRequests && (error.retryAfterSeconds ?? 0) >= 86_000)
                    throw error
                }
            }
            // once one has expired, a story may be posted again
            try await gateway.store.ageStories(of: DemoData.bobId)
            #expect(GatewayFixture.codes(try await post(gateway, Self.png, as: gateway.bob)).isEmpty)
        }
    }

    @Test("issue 37: a story is never shown anonymously, by id neither (the database shows stories to signed-in callers only)",
          arguments: StoreKind.allCases)
    func anonymousNode(_ kind: StoreKind) async throws {
        try await run(kind) { gateway in
            let id = try await post(gateway, Self.png, as: gateway.bob)["data"]?["createStory"]?["story"]?["id"]?.stringValue ?? ""
            let query = #"{ node(id: "\#(id)") { ... on Story { mediaType } } }"#
            #expect(try await gateway.run(query, viewer: gateway.alice).json["data"]?["node"] == ["mediaType": "IMAGE"])
            #expect(try await gateway.run(query).json["data"]?["node"] == .null)
        }
    }

    @Test("an expired story is never returned; a private author's stories reach only them and their approved followers",
          arguments: StoreKind.allCases)
    func expiryAndPrivacy(_ kind: StoreKind) async throws {
        try await run(kind) { gateway in
            let id = try await post(gateway, Self.png, as: gateway.bob)["data"]?["createStory"]?["story"]?["id"]?.stringValue ?? ""
            _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: gateway.bob)
            #expect(try await tray(gateway, as: gateway.carol).map(\.0) == ["bob_builder"])  // still follows bob
            _ = try await gateway.run(#"mutation { unfollow(profileId: "\#(DemoData.bobId.lowercased)") { following } }"#, viewer: gateway.alice)
            #expect(try await tray(gateway, as: gateway.alice).isEmpty)
            let stranger = try await gateway.run(#"{ node(id: "\#(id)") { id } }"#, viewer: gateway.alice)
            #expect(stranger.json["data"]?["node"] == .null)
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
            let file = try #require(store.mediaDirectory.file(.story, forRequestPath: path))
            #expect(FileManager.default.fileExists(atPath: file.path))
            #expect(try await store.purgeExpiredStories(now: Date()) == 0)
            try await store.operatorAgeStories(of: DemoData.bobId)
            #expect(try await store.purgeExpiredStories(now: Date()) == 1)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(await store.storedMedia(.story, atRequestPath: path) == nil)
        }
    }
}
