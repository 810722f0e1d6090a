import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Testing

/// Posts, the feed, likes and comments through the gateway, on every store (issue 19).
@Suite("Posts, feed, likes and comments")
struct PostTests {
    static let card = "id content imageURLs likeCount commentCount viewerHasLiked author { handle }"

    func create(_ gateway: GatewayFixture, _ content: String, as viewer: Viewer, images: [String] = []) async throws -> JSONValue {
        let result = try await gateway.run(
            "mutation C($i: CreatePostInput!) { createPost(input: $i) { post { \(Self.card) createdAt } } }",
            ["i": ["content": .string(content), "imageURLs": .array(images.map { .string($0) })]], viewer: viewer)
        #expect(result.json["errors"] == nil, "\(result.json)")
        return result.json["data"]?["createPost"]?["post"] ?? .null
    }

    func feedContents(_ gateway: GatewayFixture, as viewer: Viewer, first: Int = 50) async throws -> [String] {
        let result = try await gateway.run("{ feed(first: \(first)) { nodes { content } } }", viewer: viewer)
        return result.json["data"]?["feed"]?["nodes"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
    }

    @Test("createPost trims, counts, and the post leads its author's list and the author's own feed", arguments: StoreKind.allCases)
    func createAndList(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let post = try await create(gateway, "  Fresh chalk, new project.  ", as: gateway.bob, images: ["https://img.example/a.jpg"])
            #expect(post["content"] == "Fresh chalk, new project.")
            #expect(post["imageURLs"] == ["https://img.example/a.jpg"])
            #expect(post["likeCount"] == 0 && post["viewerHasLiked"] == false && post["author"]?["handle"] == "bob_builder")
            let list = try await gateway.run(
                #"{ profile(handle: "bob_builder") { postCount posts(first: 2) { totalCount nodes { content } pageInfo { hasNextPage } } } }"#)
            let profile = list.json["data"]?["profile"]
            #expect(profile?["postCount"] == 3)
            #expect(profile?["posts"]?["totalCount"] == 3)
            #expect(profile?["posts"]?["nodes"]?.arrayValue?.first?["content"] == "Fresh chalk, new project.")
            #expect(profile?["posts"]?["pageInfo"]?["hasNextPage"] == true)
            #expect(try await feedContents(gateway, as: gateway.bob).first == "Fresh chalk, new project.")
        }
    }

    @Test("bad input: empty or over-long content, too many images, a URL that is not http(s), signed out", arguments: StoreKind.allCases)
    func badInput(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let mutation = "mutation C($i: CreatePostInput!) { createPost(input: $i) { post { id } } }"
            func attempt(_ input: JSONObject, viewer: Viewer? = nil) async throws -> (codes: [String], fields: [String], messages: [String]) {
                let result = try await gateway.run(mutation, ["i": .object(input)], viewer: viewer ?? gateway.alice)
                let errors = result.json["errors"]?.arrayValue ?? []
                return (GatewayFixture.codes(result.json), errors.compactMap { $0["extensions"]?["field"]?.stringValue },
                        GatewayFixture.messages(result.json))
            }
            let empty = try await attempt(["content": "   "])
            #expect(empty.codes == ["BAD_USER_INPUT"] && empty.fields == ["content"] && empty.messages == ["Post content cannot be empty"])
            let long = try await attempt(["content": .string(String(repeating: "x", count: 2_001))])
            #expect(long.messages == ["Post content must be 2000 characters or less"])
            let images = try await attempt(["content": "hi", "imageURLs": .array((1...5).map { .string("https://e.x/\($0).jpg") })])
            #expect(images.fields == ["imageURLs"] && images.messages == ["A post can have at most 4 images"])
            let scheme = try await attempt(["content": "hi", "imageURLs": ["javascript:alert(1)"]])
            #expect(scheme.codes == ["BAD_USER_INPUT"] && scheme.fields == ["imageURLs"])
            let anonymous = try await attempt(["content": "hi"], viewer: .anonymous)
            #expect(anonymous.codes == ["UNAUTHENTICATED"] && anonymous.messages == ["You must be logged in to create posts"])
            // Nothing was written by any of them.
            let count = try await gateway.run(#"{ profile(handle: "alice_wonder") { postCount } }"#)
            #expect(count.json["data"]?["profile"]?["postCount"] == 3)
        }
    }

    @Test("seed 003's feed rule: followed profiles' posts plus one's own; unfollowing removes them at once", arguments: StoreKind.allCases)
    func feedRule(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            // Demo users all follow each other: bob sees all 8 demo posts, newest first.
            let all = try await feedContents(gateway, as: gateway.bob)
            #expect(all.count == 8 && all.first == "Designed a poster for our local comp!")
            for id in [DemoData.aliceId, DemoData.carolId] {
                _ = try await gateway.run(#"mutation { unfollow(profileId: "\#(id.lowercased)") { following } }"#, viewer: gateway.bob)
            }
            let own = try await feedContents(gateway, as: gateway.bob)
            #expect(own == ["Step one of the woodie: the frame is up.", "Built a new hangboard for the garage today 🔨"])
            _ = try await gateway.run(#"mutation { follow(profileId: "\#(DemoData.carolId.lowercased)") { following } }"#, viewer: gateway.bob)
            #expect(try await feedContents(gateway, as: gateway.bob).count == 5)
            let anonymous = try await gateway.run("{ feed { nodes { id } } }")
            #expect(GatewayFixture.codes(anonymous.json) == ["UNAUTHENTICATED"])
        }
    }

    @Test("feed pages are keyset cursors: a new post does not shift page 2", arguments: StoreKind.allCases)
    func stablePaging(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let first = try await gateway.run("{ feed(first: 3) { nodes { content } pageInfo { endCursor hasNextPage } } }", viewer: gateway.alice)
            let cursor = try #require(first.json["data"]?["feed"]?["pageInfo"]?["endCursor"]?.stringValue)
            #expect(first.json["data"]?["feed"]?["pageInfo"]?["hasNextPage"] == true)
            _ = try await create(gateway, "A brand new post", as: gateway.carol)
            let second = try await gateway.run(
                "query F($a: String) { feed(first: 3, after: $a) { nodes { content } } }", ["a": .string(cursor)], viewer: gateway.alice)
            let contents = second.json["data"]?["feed"]?["nodes"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
            // Page one was posts 8, 7 and 6 (newest first); page two goes on with 5, 4 and 3.
            #expect(contents == ["Color study: chalk, rock and late light.", "Best flat white in Lisbon, found by accident.",
                                 "Sketching route ideas for the new bouldering wall 🎨"])
            // Someone else's feed cursor is refused.
            let stolen = try await gateway.run(
                "query F($a: String) { feed(first: 3, after: $a) { nodes { id } } }", ["a": .string(cursor)], viewer: gateway.bob)
            #expect(GatewayFixture.codes(stolen.json) == ["BAD_USER_INPUT"])
        }
    }

    @Test("updatePost and deletePost: the author only (FORBIDDEN otherwise), NOT_FOUND for an unknown id", arguments: StoreKind.allCases)
    func ownPostsOnly(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let alicesPost = DemoData.postId(1).lowercased
            let update = "mutation U($i: UpdatePostInput!) { updatePost(input: $i) { post { content imageURLs } } }"
            let byBob = try await gateway.run(update, ["i": ["id": .string(alicesPost), "content": "mine now"]], viewer: gateway.bob)
            #expect(GatewayFixture.codes(byBob.json) == ["FORBIDDEN"])
            let byAlice = try await gateway.run(update, ["i": ["id": .string(alicesPost), "content": " Edited "]], viewer: gateway.alice)
            #expect(byAlice.json["data"]?["updatePost"]?["post"]?["content"] == "Edited")
            let unknown = try await gateway.run(
                update, ["i": ["id": "00000000-0000-4000-8000-0000000000ff", "content": "x"]], viewer: gateway.alice)
            #expect(GatewayFixture.codes(unknown.json) == ["NOT_FOUND"])
            let delete = "mutation D($id: ID!) { deletePost(id: $id) { deletedPostId author { postCount } } }"
            #expect(GatewayFixture.codes(try await gateway.run(delete, ["id": .string(alicesPost)], viewer: gateway.bob).json) == ["FORBIDDEN"])
            let deleted = try await gateway.run(delete, ["id": .string(alicesPost)], viewer: gateway.alice)
            #expect(deleted.json["data"]?["deletePost"]?["deletedPostId"] == .string(alicesPost))
            #expect(deleted.json["data"]?["deletePost"]?["author"]?["postCount"] == 2)
            let gone = try await gateway.run(#"{ post(id: "\#(alicesPost)") { id } }"#, viewer: gateway.alice)
            #expect(gone.json["data"]?["post"] == .null)
            // Its comments went with it.
            let comment = try await gateway.run(#"{ node(id: "\#(DemoData.commentId(1).lowercased)") { id } }"#, viewer: gateway.bob)
            #expect(comment.json["data"]?["node"] == .null)
        }
    }

    @Test("toggleLike: the new state and the exact count; concurrent toggles leave the count equal to the likes", arguments: StoreKind.allCases)
    func likes(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let id = DemoData.postId(3).lowercased  // carol's, no likes yet
            let toggle = #"mutation { toggleLike(postId: "\#(id)") { liked likeCount post { likeCount viewerHasLiked } } }"#
            let on = try await gateway.run(toggle, viewer: gateway.alice)
            #expect(on.json["data"]?["toggleLike"] == ["liked": true, "likeCount": 1, "post": ["likeCount": 1, "viewerHasLiked": true]])
            let off = try await gateway.run(toggle, viewer: gateway.alice)
            #expect(off.json["data"]?["toggleLike"]?["liked"] == false && off.json["data"]?["toggleLike"]?["likeCount"] == 0)
            // 10 toggles by each of the three at once: an even number each, so no like is left.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for viewer in [gateway.alice, gateway.bob, gateway.carol] {
                    for _ in 0..<10 { group.addTask { _ = try await gateway.run(toggle, viewer: viewer) } }
                }
                try await group.waitForAll()
            }
            let count = try await gateway.run(#"{ post(id: "\#(id)") { likeCount viewerHasLiked } }"#, viewer: gateway.bob)
            #expect(count.json["data"]?["post"] == ["likeCount": 0, "viewerHasLiked": false])
            let missing = try await gateway.run(#"mutation { toggleLike(postId: "00000000-0000-4000-8000-0000000000ff") { liked } }"#, viewer: gateway.alice)
            #expect(GatewayFixture.codes(missing.json) == ["NOT_FOUND"])
        }
    }

    @Test("comments: oldest first, last: n the newest; the post's author may delete any, others only their own", arguments: StoreKind.allCases)
    func comments(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let post = DemoData.postId(1).lowercased  // alice's, with bob's and carol's comments
            let added = try await gateway.run(
                #"mutation { addComment(postId: "\#(post)", content: "  Thanks both!  ") { comment { id content author { handle } } post { commentCount } } }"#,
                viewer: gateway.alice)
            #expect(added.json["data"]?["addComment"]?["comment"]?["content"] == "Thanks both!")
            #expect(added.json["data"]?["addComment"]?["post"]?["commentCount"] == 3)
            let read = try await gateway.run(
                #"{ post(id: "\#(post)") { comments(first: 10) { totalCount nodes { content } } latest: comments(last: 2) { nodes { content } } } }"#)
            #expect(read.json["data"]?["post"]?["comments"]?["nodes"]?.arrayValue?.compactMap { $0["content"]?.stringValue }
                    == ["Stunning! Which hut did you start from?", "I want to paint this 😍", "Thanks both!"])
            #expect(read.json["data"]?["post"]?["latest"]?["nodes"]?.arrayValue?.compactMap { $0["content"]?.stringValue }
                    == ["I want to paint this 😍", "Thanks both!"])
            let delete = "mutation D($id: ID!) { deleteComment(id: $id) { deletedCommentId post { commentCount } } }"
            // Carol may not delete bob's comment on alice's post; alice (the post's author) may.
            let bobs = DemoData.commentId(1).lowercased
            #expect(GatewayFixture.codes(try await gateway.run(delete, ["id": .string(bobs)], viewer: gateway.carol).json) == ["FORBIDDEN"])
            let byAlice = try await gateway.run(delete, ["id": .string(bobs)], viewer: gateway.alice)
            #expect(byAlice.json["data"]?["deleteComment"]?["post"]?["commentCount"] == 2)
            let empty = try await gateway.run(#"mutation { addComment(postId: "\#(post)", content: " ") { comment { id } } }"#, viewer: gateway.bob)
            #expect(GatewayFixture.messages(empty.json) == ["Comment cannot be empty"])
        }
    }

    @Test("a private author's posts, likes and comments reach only approved followers: post, node, lists, feed", arguments: StoreKind.allCases)
    func privateAuthor(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: gateway.bob)
            // alice stops following bob (a stranger now); carol still follows him
            _ = try await gateway.run(#"mutation { unfollow(profileId: "\#(DemoData.bobId.lowercased)") { following } }"#, viewer: gateway.alice)
            let bobsPost = DemoData.postId(2).lowercased
            let byAlice = try await gateway.run(#"{ post(id: "\#(bobsPost)") { id } node(id: "\#(bobsPost)") { id } }"#, viewer: gateway.alice)
            #expect(byAlice.json["data"] == ["post": nil, "node": nil])
            #expect(try await feedContents(gateway, as: gateway.alice).allSatisfy { !$0.contains("hangboard") && !$0.contains("woodie") })
            let like = try await gateway.run(#"mutation { toggleLike(postId: "\#(bobsPost)") { liked } }"#, viewer: gateway.alice)
            #expect(GatewayFixture.codes(like.json) == ["NOT_FOUND"])
            let comment = try await gateway.run(#"mutation { addComment(postId: "\#(bobsPost)", content: "hi") { comment { id } } }"#, viewer: gateway.alice)
            #expect(GatewayFixture.codes(comment.json) == ["NOT_FOUND"])
            // carol, an approved follower, sees the post and may comment
            let byCarol = try await gateway.run(#"mutation { addComment(postId: "\#(bobsPost)", content: "nice") { comment { id } } }"#, viewer: gateway.carol)
            #expect(byCarol.json["errors"] == nil)
            #expect(try await feedContents(gateway, as: gateway.carol).contains { $0.contains("hangboard") })
            // Bob still sees his own.
            let own = try await gateway.run(#"{ post(id: "\#(bobsPost)") { content } }"#, viewer: gateway.bob)
            #expect(own.json["data"]?["post"]?["content"] == "Built a new hangboard for the garage today 🔨")
        }
    }

    @Test("an approved follower of a private author takes back a like: toggleLike twice, like then unlike (migration 003300)",
          arguments: StoreKind.allCases)
    func approvedFollowerUnlikes(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: gateway.bob)
            let bobsPost = DemoData.postId(2).lowercased
            let before = try await gateway.run(#"{ post(id: "\#(bobsPost)") { likeCount viewerHasLiked } }"#, viewer: gateway.carol)
            let count = try #require(before.json["data"]?["post"]?["likeCount"]?.intValue)
            #expect(before.json["data"]?["post"]?["viewerHasLiked"] == false)
            let toggle = #"mutation { toggleLike(postId: "\#(bobsPost)") { liked post { likeCount } } }"#
            let liked = try await gateway.run(toggle, viewer: gateway.carol)
            #expect(liked.json["data"]?["toggleLike"]?["liked"] == true, "\(liked.json)")
            #expect(liked.json["data"]?["toggleLike"]?["post"]?["likeCount"]?.intValue == count + 1)
            // PostgreSQL refused this one (23505) while post_likes_delete_own held the rule of 001400
            let unliked = try await gateway.run(toggle, viewer: gateway.carol)
            #expect(unliked.json["errors"] == nil, "\(unliked.json)")
            #expect(unliked.json["data"]?["toggleLike"]?["liked"] == false)
            #expect(unliked.json["data"]?["toggleLike"]?["post"]?["likeCount"]?.intValue == count)
            _ = try await gateway.run(#"mutation { like(postId: "\#(bobsPost)") { liked } }"#, viewer: gateway.carol)
            let unlike = try await gateway.run(#"mutation { unlike(postId: "\#(bobsPost)") { liked post { likeCount viewerHasLiked } } }"#,
                                               viewer: gateway.carol)
            #expect(unlike.json["data"]?["unlike"]?["post"]?["likeCount"]?.intValue == count, "\(unlike.json)")
            #expect(unlike.json["data"]?["unlike"]?["post"]?["viewerHasLiked"] == false)
        }
    }

    @Test("a private profile's comment reaches only its author and approved followers, even on a public post; the post still renders for others",
          arguments: StoreKind.allCases)
    func privateCommenter(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let post = DemoData.postId(1).lowercased  // alice's, with bob's and carol's comments
            _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: gateway.carol)
            // bob stops following carol (a stranger now); alice still follows her and sees her comment
            _ = try await gateway.run(#"mutation { unfollow(profileId: "\#(DemoData.carolId.lowercased)") { following } }"#, viewer: gateway.bob)
            let query = #"{ post(id: "\#(post)") { commentCount comments(first: 10) { nodes { content author { handle } } } } }"#
            let follower = try await gateway.run(query, viewer: gateway.alice)
            #expect(follower.json["data"]?["post"]?["comments"]?["nodes"]?.arrayValue?.count == 2)
            for viewer in [Viewer.anonymous, gateway.bob] {
                let read = try await gateway.run(query, viewer: viewer)
                #expect(read.json["errors"] == nil, "\(read.json)")
                #expect(read.json["data"]?["post"]?["comments"]?["nodes"]?.arrayValue?.compactMap { $0["author"]?["handle"]?.stringValue }
                        == ["bob_builder"])
            }
            let own = try await gateway.run(query, viewer: gateway.carol)
            #expect(own.json["data"]?["post"]?["comments"]?["nodes"]?.arrayValue?.count == 2)
            let node = try await gateway.run(#"{ node(id: "\#(DemoData.commentId(2).lowercased)") { id } }"#, viewer: gateway.bob)
            #expect(node.json["data"]?["node"] == .null)
        }
    }

    @Test("issue 54: a post's likers, newest first and paged; a liker the viewer does not see is counted, not shown",
          arguments: StoreKind.allCases)
    func likers(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let created = try await gateway.run(#"mutation { createPost(input: {content: "who likes this?"}) { post { id } } }"#, viewer: gateway.alice)
            let post = try #require(created.json["data"]?["createPost"]?["post"]?["id"]?.stringValue)
            for liker in [gateway.bob, gateway.carol] {
                let liked = try await gateway.run(#"mutation { like(postId: "\#(post)") { liked } }"#, viewer: liker)
                #expect(liked.json["errors"] == nil, "\(liked.json)")
            }
            let query = """
                query L($id: ID!, $first: Int, $after: String) { post(id: $id) { likeCount
                  likers(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { likedAt node { handle } } } } }
                """
            func handles(_ answer: (response: GatewayResponse, json: JSONValue)) -> [String] {
                answer.json["data"]?["post"]?["likers"]?["edges"]?.arrayValue?.compactMap { $0["node"]?["handle"]?.stringValue } ?? []
            }
            let all = try await gateway.run(query, ["id": .string(post)], viewer: gateway.alice)
            #expect(all.json["errors"] == nil, "\(all.json)")
            #expect(handles(all) == ["carol_creator", "bob_builder"])
            #expect(all.json["data"]?["post"]?["likers"]?["totalCount"] == 2)
            // One at a time.
            let first = try await gateway.run(query, ["id": .string(post), "first": 1], viewer: gateway.alice)
            #expect(handles(first) == ["carol_creator"])
            #expect(first.json["data"]?["post"]?["likers"]?["pageInfo"]?["hasNextPage"] == true)
            let cursor = first.json["data"]?["post"]?["likers"]?["pageInfo"]?["endCursor"] ?? .null
            let second = try await gateway.run(query, ["id": .string(post), "first": 1, "after": cursor], viewer: gateway.alice)
            #expect(handles(second) == ["bob_builder"])
            #expect(second.json["data"]?["post"]?["likers"]?["pageInfo"]?["hasNextPage"] == false)
            let wrong = try await gateway.run(query, ["id": .string(post), "after": "bm90LWEtY3Vyc29y"], viewer: gateway.alice)
            #expect(GatewayFixture.codes(wrong.json) == ["BAD_USER_INPUT"])

            // bob goes private and alice stops following him: she sees his card only, so his like
            // is counted but not shown (the edge rule); carol, his follower, still sees it.
            _ = try await gateway.run("mutation { updateProfile(input: {isPublic: false}) { profile { isPublic } } }", viewer: gateway.bob)
            _ = try await gateway.run(#"mutation { unfollow(profileId: "\#(DemoData.bobId.lowercased)") { following } }"#, viewer: gateway.alice)
            for viewer in [gateway.alice, Viewer.anonymous] {
                let read = try await gateway.run(query, ["id": .string(post)], viewer: viewer)
                #expect(read.json["errors"] == nil, "\(read.json)")
                #expect(handles(read) == ["carol_creator"])
                #expect(read.json["data"]?["post"]?["likers"]?["totalCount"] == 2)
                #expect(read.json["data"]?["post"]?["likeCount"] == 2)
            }
            let follower = try await gateway.run(query, ["id": .string(post)], viewer: gateway.carol)
            #expect(handles(follower) == ["carol_creator", "bob_builder"])

            // A feed page asks the likers of all its posts in one store call (the loader's wave).
            gateway.store.resetRoundTrips()
            let feed = try await gateway.run("{ feed(first: 10) { edges { node { likers(first: 2) { totalCount nodes { handle } } } } } }",
                                             viewer: gateway.alice)
            #expect(feed.json["errors"] == nil, "\(feed.json)")
            #expect((feed.json["data"]?["feed"]?["edges"]?.arrayValue?.count ?? 0) > 1)
            switch kind {
            case .embedded, .postgres: #expect(try #require(gateway.store.callCounts)["likerPages"] == 1)
            case .supabase: #expect(try #require(gateway.store.fake).requestCounts["POST /rest/v1/rpc/liker_pages"] == 1)
            }
        }
    }

    @Test("bad input: a NUL in a post or a comment is BAD_USER_INPUT, not a database error", arguments: StoreKind.allCases)
    func nulCharacters(_ kind: StoreKind) async throws {
        try await GatewayFixture.run(kind) { gateway in
            let post = try await gateway.run(
                "mutation C($c: String!) { createPost(input: {content: $c}) { post { id } } }", ["c": "a\u{0}b"], viewer: gateway.alice)
            #expect(GatewayFixture.codes(post.json) == ["BAD_USER_INPUT"])
            let comment = try await gateway.run(
                "mutation C($c: String!) { addComment(postId: \"\(DemoData.postId(1).lowercased)\", content: $c) { comment { id } } }",
                ["c": "a\u{0}b"], viewer: gateway.bob)
            #expect(GatewayFixture.codes(comment.json) == ["BAD_USER_INPUT"])
        }
    }
}
