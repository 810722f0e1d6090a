import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Images uploaded with a post (issue 54, part 3): files of a multipart request, checked as an
/// avatar is, stored in the post-images bucket of every store, and deleted with the post.
@Suite("Post images")
struct PostImageTests {
    static let png = StoryTests.png
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0, 2, 0, 3, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9])
    static let create = """
        mutation P($input: CreatePostInput!) { createPost(input: $input) { post { id imageURLs author { handle } } } }
        """

    /// Creates a post as `viewer` with `links` and one uploaded file per element of `images`.
    func create(_ gateway: GatewayFixture, links: [String] = [], images: [Data], as viewer: Viewer) async throws -> JSONValue {
        var files: [String: UploadedFile] = [:]
        var map: [String: [String]] = [:]
        for (i, bytes) in images.enumerated() {
            files["\(i)"] = UploadedFile(filename: "image\(i)", contentType: "application/octet-stream", bytes: bytes)
            map["\(i)"] = ["variables.input.images.\(i)"]
        }
        let input: JSONObject = [
            "content": "with images", "imageURLs": .array(links.map { .string($0) }),
            "images": .array(images.map { _ in .null }),
        ]
        return try await gateway.run(Self.create, ["input": .object(input)], viewer: viewer, files: files, map: map).json
    }

    @Test("issue 54: createPost stores uploaded images in the post-images bucket and lists them after the links, on every store",
          arguments: StoreKind.allCases)
    func uploaded(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let link = "https://example.com/a.jpg"
            let json = try await create(gateway, links: [link], images: [Self.png, Self.jpeg], as: gateway.alice)
            #expect(json["errors"] == nil, "\(json)")
            let urls = json["data"]?["createPost"]?["post"]?["imageURLs"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(urls.count == 3)
            #expect(urls.first == link)
            #expect(urls.dropFirst().allSatisfy { $0.contains("/post-images/\(DemoData.aliceId.lowercased)/") })
            #expect(urls.dropFirst().map { $0.split(separator: ".").last } == ["png", "jpg"])
            #expect(gateway.store.storedFileCount(.postImage) == 2)
            // Read back through the feed as another viewer: the same list.
            let id = try #require(json["data"]?["createPost"]?["post"]?["id"]?.stringValue)
            let read = try await gateway.run("query($id: ID!) { node(id: $id) { ... on Post { imageURLs } } }", ["id": .string(id)], viewer: gateway.bob)
            #expect(read.json["data"]?["node"]?["imageURLs"]?.arrayValue?.compactMap(\.stringValue) == urls)
        }
    }

    @Test("issue 54: an image is checked as an avatar before anything is stored: type, size, dimensions, count; nothing is left",
          arguments: StoreKind.allCases)
    func refused(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let text = try await create(gateway, images: [Self.png, Data("not an image".utf8)], as: gateway.alice)
            #expect(GatewayFixture.codes(text) == ["UNSUPPORTED_MEDIA_TYPE"])
            #expect(text["errors"]?.arrayValue?.first?["extensions"]?["field"] == "images")
            let big = Self.png + Data(repeating: 0, count: CreatePost.maxImageBytes)
            #expect(GatewayFixture.codes(try await create(gateway, images: [big], as: gateway.alice)) == ["PAYLOAD_TOO_LARGE"])
            // A few bytes that declare 100,000 x 100,000 pixels: refused unread.
            let bomb = try await create(gateway, images: [StoryTests.bombPNG], as: gateway.alice)
            #expect(GatewayFixture.codes(bomb) == [DomainError.imageTooLarge.code.rawValue])
            let five = try await create(gateway, links: ["https://example.com/a.jpg"], images: Array(repeating: Self.png, count: 4), as: gateway.alice)
            #expect(GatewayFixture.codes(five) == ["BAD_USER_INPUT"])
            #expect(GatewayFixture.messages(five) == ["A post can have at most 4 images"])
            #expect(gateway.store.storedFileCount(.postImage) == 0)
            let anonymous = try await create(gateway, images: [Self.png], as: .anonymous)
            #expect(GatewayFixture.codes(anonymous) == ["UNAUTHENTICATED"])
            // No post was made by any of them.
            let feed = try await gateway.run("{ feed(first: 50) { nodes { content } } }", viewer: gateway.alice).json
            #expect(feed["data"]?["feed"]?["nodes"]?.arrayValue?.contains { $0["content"] == "with images" } == false)
        }
    }

    @Test("issue 54: one uploaded file backs one image: naming it twice is refused", arguments: [StoreKind.embedded])
    func fileOnce(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let input: JSONObject = ["content": "twice", "images": [nil, nil]]
            let json = try await gateway.run(
                Self.create, ["input": .object(input)], viewer: gateway.alice,
                files: ["0": UploadedFile(filename: "a", contentType: "image/png", bytes: Self.png)],
                map: ["0": ["variables.input.images.0", "variables.input.images.1"]]).json
            #expect(GatewayFixture.codes(json) == ["BAD_USER_INPUT"])
            #expect(gateway.store.storedFileCount(.postImage) == 0)
        }
    }

    @Test("issue 54: deletePost deletes the images uploaded with it, updatePost those it no longer lists; links are never touched",
          arguments: StoreKind.allCases)
    func deletedWithThePost(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let link = "https://example.com/a.jpg"
            let json = try await create(gateway, links: [link], images: [Self.png, Self.jpeg], as: gateway.alice)
            let post = try #require(json["data"]?["createPost"]?["post"])
            let id = try #require(post["id"]?.stringValue)
            let urls = post["imageURLs"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(gateway.store.storedFileCount(.postImage) == 2)
            let update = "mutation U($input: UpdatePostInput!) { updatePost(input: $input) { post { imageURLs } } }"
            let kept = [urls[0], urls[2]]
            let updated = try await gateway.run(
                update, ["input": ["id": .string(id), "imageURLs": .array(kept.map { .string($0) })]], viewer: gateway.alice).json
            #expect(updated["data"]?["updatePost"]?["post"]?["imageURLs"]?.arrayValue?.compactMap(\.stringValue) == kept)
            #expect(gateway.store.storedFileCount(.postImage) == 1)
            let deleted = try await gateway.run("mutation D($id: ID!) { deletePost(id: $id) { deletedPostId } }", ["id": .string(id)], viewer: gateway.alice).json
            #expect(deleted["errors"] == nil, "\(deleted)")
            #expect(gateway.store.storedFileCount(.postImage) == 0)
        }
    }
}
