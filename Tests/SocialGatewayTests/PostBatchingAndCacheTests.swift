import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import ResponseCache
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

@Suite("Posts: batching and the cache")
struct PostBatchingAndCacheTests {
    static let feedQuery = """
        { feed(first: 20) { nodes { content likeCount viewerHasLiked
            author { handle displayName avatarURL viewerIsFollowing }
            comments(first: 3) { nodes { content author { handle } } } } } }
        """

    @Test("a feed page of 20 posts with authors, follow states, likes and 3 comments each costs 5 store calls (embedded)")
    func feedCalls() async throws {
        try await GatewayFixture.run(.embedded) { gateway in
            for n in 1...14 {
                let viewer = [gateway.alice, gateway.bob, gateway.carol][n % 3]
                let made = try await gateway.run(
                    #"mutation { createPost(input: {content: "post \#(n)"}) { post { id } } }"#, viewer: viewer)
                let id = try #require(made.json["data"]?["createPost"]?["post"]?["id"]?.stringValue)
                _ = try await gateway.run(#"mutation { addComment(postId: "\#(id)", content: "nice \#(n)") { comment { id } } }"#, viewer: gateway.alice)
            }
            let store = try #require(gateway.store.embedded)
            store.resetCounters()
            let result = try await gateway.run(Self.feedQuery, viewer: gateway.bob)
            #expect(result.json["errors"] == nil)
            #expect(result.json["data"]?["feed"]?["nodes"]?.arrayValue?.count == 20)
            // The feed (likes included), the authors, their follow states, the comment pages: one
            // call each. The comment authors would be a fifth, but they are the post authors
            // already loaded (the three demo users).
            #expect(store.callCounts == ["postPages": 1, "profilesByID": 1, "activeFollows": 1, "commentPages": 1])
        }
    }

    @Test("on Supabase a feed page is one request: feed_page_with_sources gives the posts and their sources together",
          .enabled(if: StoreKind.allCases.contains(.supabase), "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func supabaseFeedRequests() async throws {
        try await GatewayFixture.run(.supabase) { gateway in
            let fake = try #require(gateway.store.fake)
            fake.clearRequests()
            let result = try await gateway.run("{ feed(first: 5) { nodes { content likeCount viewerHasLiked } } }", viewer: gateway.bob)
            #expect(result.json["data"]?["feed"]?["nodes"]?.arrayValue?.count == 5)
            #expect(fake.requestCounts == ["POST /rest/v1/rpc/feed_page_with_sources": 1])
        }
    }

    @Test("on Supabase a feed page with authors, states, likes and 3 comments each waits for 2 sequential round trips (issue 41)",
          .enabled(if: StoreKind.allCases.contains(.supabase), "needs SOCIAL_GATEWAY_TEST_POSTGRES (scripts/test starts a server)"))
    func supabaseFeedWaves() async throws {
        try await GatewayFixture.run(.supabase) { gateway in
            let fake = try #require(gateway.store.fake)
            for n in 1...6 {
                let made = try await gateway.run(#"mutation { createPost(input: {content: "post \#(n)"}) { post { id } } }"#, viewer: gateway.alice)
                let id = try #require(made.json["data"]?["createPost"]?["post"]?["id"]?.stringValue)
                _ = try await gateway.run(#"mutation { addComment(postId: "\#(id)", content: "nice \#(n)") { comment { id } } }"#, viewer: gateway.carol)
            }
            // A latency far above the gateway's own time keeps waves apart on a busy machine.
            fake.latency = .milliseconds(100)
            fake.clearRequests()
            let result = try await gateway.run(Self.feedQuery, viewer: gateway.bob)
            #expect(result.json["errors"] == nil)
            #expect((result.json["data"]?["feed"]?["nodes"]?.arrayValue?.count ?? 0) >= 6)
            // The feed with its likes and sources; then the authors, their follow states (the
            // `author` selection asks for viewerIsFollowing, so the resolver queues the state with
            // the author) and every comment page together (the comments' authors are the demo
            // users this wave loads: the request's loader keeps them). Issue 41's goal: 2.
            let waves = fake.waves.map { Set($0.map(\.endpoint)) }
            #expect(waves == [
                ["POST /rest/v1/rpc/feed_page_with_sources"],
                ["GET /rest/v1/profiles", "POST /rest/v1/rpc/comment_pages", "POST /rest/v1/rpc/active_follows"],
            ])
        }
    }

    @Test("a cached post goes when its author turns private (the answer depends on the author's profile)",
          arguments: StoreKind.allCases)
    func cachedPostOfNowPrivateAuthor(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let query = #"{ post(id: "\#(DemoData.postId(5).lowercased)") { id content } }"#
            for _ in 0..<200 where cache.counters.hits == 0 {
                _ = try await gateway.run(query)
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(cache.counters.hits > 0)
            _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: gateway.carol)
            #expect(try await gateway.run(query).json["data"]?["post"] == .null)
        }
    }

    @Test("read-your-writes with the cache: a post, an edit, a like, a comment and an unfollow each show at once",
          arguments: StoreKind.allCases)
    func cachedFeed(_ kind: StoreKind) async throws {
        try await withCachedGateway(kind) { gateway, cache in
            let feed = "{ feed(first: 3) { nodes { id content likeCount commentCount viewerHasLiked } } }"
            func read(_ viewer: Viewer) async throws -> [JSONValue] {
                let response = try await gateway.run(feed, viewer: viewer)
                #expect(response.response.cacheControl?.hasPrefix("private") == true)
                return response.json["data"]?["feed"]?["nodes"]?.arrayValue ?? []
            }
            _ = try await read(gateway.alice)
            // The store of a miss happens off the request path: read until a read is a hit.
            for _ in 0..<200 where cache.counters.hits == 0 {
                _ = try await read(gateway.alice)
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(cache.counters.hits > 0)
            // Bob posts: alice follows him, so her cached feed must show it first.
            _ = try await gateway.run(#"mutation { createPost(input: {content: "Hot off the press"}) { post { id } } }"#, viewer: gateway.bob)
            let afterPost = try await read(gateway.alice)
            #expect(afterPost.first?["content"] == "Hot off the press")
            let id = try #require(afterPost.first?["id"]?.stringValue)
            _ = try await gateway.run(#"mutation { toggleLike(postId: "\#(id)") { liked } }"#, viewer: gateway.alice)
            #expect(try await read(gateway.alice).first?["likeCount"] == 1)
            #expect(try await read(gateway.alice).first?["viewerHasLiked"] == true)
            _ = try await gateway.run(#"mutation { addComment(postId: "\#(id)", content: "First!") { comment { id } } }"#, viewer: gateway.carol)
            #expect(try await read(gateway.alice).first?["commentCount"] == 1)
            _ = try await gateway.run(
                #"mutation { updatePost(input: {id: "\#(id)", content: "Hot, edited"}) { post { id } } }"#, viewer: gateway.bob)
            #expect(try await read(gateway.alice).first?["content"] == "Hot, edited")
            // Bob's like state is his own: alice's like never shows as his.
            #expect(try await read(gateway.bob).first?["viewerHasLiked"] == false)
            _ = try await gateway.run(#"mutation { unfollow(profileId: "\#(DemoData.bobId.lowercased)") { following } }"#, viewer: gateway.alice)
            #expect(try await read(gateway.alice).allSatisfy { $0["content"] != "Hot, edited" })
        }
    }
}
